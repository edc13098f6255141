package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// racyKernel races on tile: the write at line 10 against the read at line
// 11, where the race is reported, with line 10 as related information.
const racyKernel = `package k

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=256
func Shift(t gpu.Thread, x, y []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	g := t.GlobalIdx().X
	tile[i] = x[g]
	y[g] = tile[(i+1)%256]
}
`

// TestRelatedOutputs checks that a finding's related position (a race's
// other access) reaches every output format: an indented line below the
// finding in text, "related" in JSON, relatedLocations in SARIF.
func TestRelatedOutputs(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"k/k.go": racyKernel})

	r := gpukvet(t, dir, "./...")
	wantCode(t, r, 1)
	if want := "k/k.go:11:13: races: data race on shared tile"; !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, "\n\tk/k.go:10:6: the other access: thread 1 writes tile[1]\n") {
		t.Errorf("text output lacks the race at line 11 with its other access at line 10:\n%s", r.stdout)
	}

	r = gpukvet(t, dir, "-f=json", "./...")
	wantCode(t, r, 1)
	var out struct {
		Findings []struct {
			Line    int
			Related []struct{ Posn, Message string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Findings) != 1 {
		t.Fatalf("not one JSON finding (%v):\n%s", err, r.stdout)
	}
	if rel := out.Findings[0].Related; len(rel) != 1 || !strings.HasSuffix(rel[0].Posn, "k/k.go:10:6") || !strings.HasPrefix(rel[0].Message, "the other access:") {
		t.Errorf("JSON related = %+v, want the access at k/k.go:10:6", rel)
	}

	r = gpukvet(t, dir, "-f=sarif", "./...")
	wantCode(t, r, 1)
	var log struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []struct {
					Message          struct{ Text string }
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("not one SARIF result (%v):\n%s", err, r.stdout)
	}
	rel := log.Runs[0].Results[0].RelatedLocations
	if len(rel) != 1 || rel[0].PhysicalLocation.ArtifactLocation.URI != "k/k.go" || rel[0].PhysicalLocation.Region.StartLine != 10 || !strings.HasPrefix(rel[0].Message.Text, "the other access:") {
		t.Errorf("SARIF relatedLocations = %+v, want the access at k/k.go line 10", rel)
	}
}
