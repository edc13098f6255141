package races_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/races"
)

// TestWitnessesReplay replays every witness the races corpus
// (testdata/corpus/races) and the analysistest packages produce, and
// fails when a printed one does not happen or could not be replayed. It counts, for each, the
// witnesses replayed and refuted with the feedback loop off (the
// witnesses that would be printed without it) and on:
//
//	go test ./races -run TestWitnessesReplay -v
func TestWitnessesReplay(t *testing.T) {
	sets := []struct {
		name string
		run  func()
	}{
		{"corpus", func() {
			for _, k := range loadCorpus(t) {
				runStatic(k)
			}
		}},
		{"analysistest", func() {
			dir := analysistestdata.GOPATH(t, analysistest.TestData())
			analysistest.Run(&quietT{T: t}, dir, races.Analyzer, "basic", "patterns", "odd", "bitops", "idioms", "witness", "xorpartner", "guardfix", "outofbounds", "shifts", "flags", "wavefront", "tickets", "pingpong", "planes", "highbit", "bitfields")
		}},
	}
	for _, set := range sets {
		for _, feedback := range []bool{false, true} {
			log, restore := races.LogWitnesses(feedback)
			set.run()
			restore()
			t.Logf("%s, feedback %v: witnesses replayed %d, refuted %d, not replayable %d; printed as races %d, of which did not happen %d and could not be replayed %d; printed as could not prove %d (witness refuted) and %d (witness not replayable)",
				set.name, feedback, log.Replayed, log.Refuted, log.Unknown, log.Printed, log.PrintedBad, log.Unverified, log.Unproven, log.Unreplayable)
			for _, m := range log.Bad {
				t.Logf("did not happen: %s", m)
			}
			if feedback && log.PrintedBad+log.Unverified > 0 {
				t.Errorf("%s: %d printed witnesses did not happen when replayed, and %d could not be replayed", set.name, log.PrintedBad, log.Unverified)
			}
		}
	}
}

// quietT is a testing.T whose errors are dropped: analysistest's
// expectations are TestAnalyzer's business, and without the feedback loop
// they do not hold.
type quietT struct{ *testing.T }

func (q *quietT) Errorf(string, ...any) {}
