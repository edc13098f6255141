package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
)

// The tests run the gpukvet binary, built once by TestMain, on small
// modules written into temporary folders. The modules import gpukvet
// through a replace directive pointing at this checkout.

var (
	gpukvetBin string // the binary under test
	vetBin     string // cmd/gpukvet-vet, the analyzers-only vet tool
	repoRoot   string // the checkout the test modules replace gpukvet with
)

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "gpukvet-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	gpukvetBin = filepath.Join(dir, "gpukvet")
	vetBin = filepath.Join(dir, "gpukvet-vet")
	for bin, pkg := range map[string]string{gpukvetBin: ".", vetBin: "../gpukvet-vet"} {
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", pkg, err, out)
			return 2
		}
	}
	if repoRoot, err = filepath.Abs("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return m.Run()
}

// writeModule writes a module example.com/m that requires gpukvet (replaced
// by this checkout) and holds files (path → content), and returns its folder.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	gomod := fmt.Sprintf("module example.com/m\n\ngo 1.26\n\nrequire github.com/gpukvet/gpukvet v0.0.0\n\nreplace github.com/gpukvet/gpukvet => %s\n", repoRoot)
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = gomod
	files["go.sum"] = string(sum)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs name with args in dir and returns its output and exit code.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running %s %s: %v", name, strings.Join(args, " "), err)
	}
	return result{stdout.String(), stderr.String(), code}
}

func gpukvet(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, gpukvetBin, args...)
}

func wantCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

// A package with one finding that every build of the suite reports: a
// //gpukvet:ignore directive without a reason (line 3).
const malformed = `package bad

//gpukvet:ignore races

func F() {}
`

const clean = `package good

// F is fine.
func F() int { return 1 }
`

const typeError = `package broken

func F() int { return "one" }
`

func TestStandaloneText(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"bad/bad.go": malformed, "good/good.go": clean})
	r := gpukvet(t, dir, "./...")
	wantCode(t, r, 1)
	want := "bad/bad.go:3:1: ignore: //gpukvet:ignore races needs a reason after the analyzer name, saying why the report is wrong here\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	if r.stderr != "" {
		t.Errorf("unexpected stderr:\n%s", r.stderr)
	}
}

func TestStandaloneClean(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"good/good.go": clean})
	for _, format := range []string{"text", "json", "sarif"} {
		r := gpukvet(t, dir, "-f="+format, "./...")
		wantCode(t, r, 0)
		if format == "text" && r.stdout != "" {
			t.Errorf("clean package, text output:\n%s", r.stdout)
		}
		if format == "sarif" && !strings.Contains(r.stdout, `"results": []`) {
			t.Errorf("clean SARIF run must hold an empty results array:\n%s", r.stdout)
		}
	}
}

// jsonRun is the part of -f=json's output the tests read (package lint
// tests the rest).
type jsonRun struct {
	Findings []struct {
		Analyzer string
		File     string
		Line     int
	}
	Errors []string
}

func TestStandaloneJSON(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"bad/bad.go": malformed})
	r := gpukvet(t, dir, "-f=json", "./...")
	wantCode(t, r, 1)
	var out jsonRun
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
	}
	if len(out.Findings) != 1 || len(out.Errors) != 0 {
		t.Fatalf("got %d findings and %d errors, want 1 and 0:\n%s", len(out.Findings), len(out.Errors), r.stdout)
	}
	if f := out.Findings[0]; f.Analyzer != "ignore" || f.File != "bad/bad.go" || f.Line != 3 {
		t.Errorf("finding = %+v", f)
	}
	// -json is -f=json.
	if r2 := gpukvet(t, dir, "-json", "./..."); r2.stdout != r.stdout {
		t.Errorf("-json differs from -f=json:\n%s", r2.stdout)
	}
}

// TestStandaloneSARIF checks what the command gives SARIF output (package
// lint tests the rest): gpukvet's version, which starts with a number as
// SARIF consumers compare versions, and file names relative to the
// working directory, %SRCROOT%.
func TestStandaloneSARIF(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"bad/bad.go": malformed})
	r := gpukvet(t, dir, "-f=sarif", "./...")
	wantCode(t, r, 1)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not one SARIF run (%v):\n%s", err, r.stdout)
	}
	run := log.Runs[0]
	if v := run.Tool.Driver.Version; v == "" || v[0] < '0' || v[0] > '9' {
		t.Errorf("driver version %q does not start with a number", v)
	}
	if len(run.Results) != 1 || run.Results[0].RuleID != "ignore" || len(run.Results[0].Locations) != 1 {
		t.Fatalf("results = %+v", run.Results)
	}
	if loc := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation; loc.URI != "bad/bad.go" || loc.URIBaseID != "%SRCROOT%" {
		t.Errorf("artifact location = %+v", loc)
	}
}

// TestSARIFSourceRoot checks SARIF's file names for a module in a
// subdirectory of its repository: relative to the repository root (found
// by its .git) by default, to -srcroot when given.
func TestSARIFSourceRoot(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	mod := writeModule(t, map[string]string{"bad/bad.go": malformed})
	sub := filepath.Join(repo, "tools", "kernels")
	if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(mod, sub); err != nil {
		t.Fatal(err)
	}
	uri := func(args ...string) (string, string) {
		t.Helper()
		r := gpukvet(t, sub, append([]string{"-f=sarif"}, args...)...)
		wantCode(t, r, exitFindings)
		var log struct {
			Runs []struct {
				OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
				Results            []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
			t.Fatalf("SARIF output (%v):\n%s", err, r.stdout)
		}
		run := log.Runs[0]
		return run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI, run.OriginalURIBaseIDs["%SRCROOT%"].URI
	}
	if got, base := uri("./..."); got != "tools/kernels/bad/bad.go" || base != "file://"+filepath.ToSlash(repo)+"/" {
		t.Errorf("default: uri %q, %%SRCROOT%% %q; want tools/kernels/bad/bad.go below %s", got, base, repo)
	}
	if got, _ := uri("-srcroot=.", "./..."); got != "bad/bad.go" {
		t.Errorf("-srcroot=.: uri %q, want bad/bad.go", got)
	}
	if got, _ := uri("-srcroot=..", "./..."); got != "kernels/bad/bad.go" {
		t.Errorf("-srcroot=..: uri %q, want kernels/bad/bad.go", got)
	}
	if r := gpukvet(t, sub, "-f=sarif", "-srcroot=nosuch", "./..."); r.code != exitError || !strings.Contains(r.stderr, "-srcroot") {
		t.Errorf("-srcroot=nosuch: exit %d, stderr %q; want 2 naming -srcroot", r.code, r.stderr)
	}
}

func TestLoadError(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"broken/broken.go": typeError, "bad/bad.go": malformed})
	r := gpukvet(t, dir, "./...")
	wantCode(t, r, 2)
	if !regexp.MustCompile(`(?m)^broken/broken.go:3:23: cannot use "one"`).MatchString(r.stderr) {
		t.Errorf("stderr lacks the compiler's message at its position:\n%s", r.stderr)
	}
	// The packages that did load are still checked.
	if !strings.Contains(r.stdout, "bad/bad.go:3:1: ignore:") {
		t.Errorf("the package that loaded was not checked:\n%s", r.stdout)
	}
	// SARIF: the error is a tool execution notification of a failed run,
	// at level error, its text the message as stderr gives it.
	r = gpukvet(t, dir, "-f=sarif", "./...")
	wantCode(t, r, 2)
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Level   string `json:"level"`
					Message struct{ Text string }
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("SARIF output (%v):\n%s", err, r.stdout)
	}
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 {
		t.Fatalf("SARIF invocation = %+v", inv)
	}
	if n := inv.ToolExecutionNotifications[0]; n.Level != "error" || !strings.Contains(n.Message.Text, `broken/broken.go:3:23: cannot use "one"`) || n.Message.Text+"\n" != r.stderr {
		t.Errorf("SARIF notification = %+v; stderr:\n%s", n, r.stderr)
	}

	r = gpukvet(t, dir, "./nosuchdir")
	wantCode(t, r, 2)
	if r.stderr == "" {
		t.Errorf("no message for a pattern that matches nothing")
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"-f=xml", "."}, 2, "unknown output format -f=xml"},
		{[]string{"-explain", "nosuch"}, 2, `no analyzer named "nosuch"`},
		{[]string{"-explain", "ignore"}, 0, "//gpukvet:ignore"},
		{[]string{"-version"}, 0, "gpukvet "},
		{[]string{"-h"}, 0, "Exit status"},
		{[]string{"-version"}, 0, "gpukvet 0.0.0-devel"},
		{[]string{"build", "-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"gen", "-nosuchflag"}, 2, "flag provided but not defined"},
	} {
		r := gpukvet(t, dir, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.out) {
			t.Errorf("gpukvet %s: exit %d, want %d; output should contain %q:\n%s%s", strings.Join(tc.args, " "), r.code, tc.code, tc.out, r.stdout, r.stderr)
		}
	}
	// -h lists every subcommand main dispatches to.
	help := gpukvet(t, dir, "-h").stderr
	for _, c := range subcommands() {
		if !regexp.MustCompile(`(?m)^\t` + c.name + ` +\S`).MatchString(help) {
			t.Errorf("gpukvet -h does not list %s:\n%s", c.name, help)
		}
	}
}

// TestVetTool runs gpukvet, and gpukvet-vet (the same analyzers without
// the compiler), under go vet, where they speak the unitchecker protocol:
// -V=full, -flags, and one *.cfg per package. Both must say the same.
func TestVetTool(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"bad/bad.go": malformed, "good/good.go": clean})
	var outputs []string
	for _, bin := range []string{gpukvetBin, vetBin} {
		outputs = append(outputs, vetToolRuns(t, dir, bin))
	}
	if outputs[0] != outputs[1] {
		t.Errorf("gpukvet and gpukvet-vet differ under go vet:\n%s\n---\n%s", outputs[0], outputs[1])
	}
	if a, b := run(t, dir, gpukvetBin, "-flags").stdout, run(t, dir, vetBin, "-flags").stdout; a != b {
		t.Errorf("gpukvet -flags and gpukvet-vet -flags differ:\n%s\n---\n%s", a, b)
	}
}

// vetToolRuns runs go vet with bin as its vet tool on dir's packages and
// returns the findings it printed.
func vetToolRuns(t *testing.T, dir, bin string) string {
	name := filepath.Base(bin)
	r := run(t, dir, "go", "vet", "-vettool="+bin, "./good")
	wantCode(t, r, 0)

	r = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if r.code == 0 {
		t.Fatalf("go vet -vettool=%s passed a package with a finding:\n%s", name, r.stderr)
	}
	if !strings.Contains(r.stderr, "bad/bad.go:3:1: //gpukvet:ignore races needs a reason") {
		t.Errorf("go vet -vettool=%s stderr lacks the finding:\n%s", name, r.stderr)
	}
	findings := r.stderr

	// -json: findings on stdout, keyed by package and analyzer.
	r = run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./bad")
	var tree map[string]map[string][]struct{ Posn, Message string }
	if err := json.Unmarshal([]byte(r.stderr+r.stdout), &tree); err != nil {
		t.Fatalf("go vet -vettool=%s -json output is not JSON: %v\nstdout:\n%s\nstderr:\n%s", name, err, r.stdout, r.stderr)
	}
	if ds := tree["example.com/m/bad"]["ignore"]; len(ds) != 1 || !strings.HasSuffix(ds[0].Posn, "bad.go:3:1") {
		t.Errorf("go vet -vettool=%s -json = %v", name, tree)
	}

	// Per-analyzer flags: enabling one analyzer runs only that one.
	r = run(t, dir, "go", "vet", "-vettool="+bin, "-ignore", "./bad")
	if r.code == 0 {
		t.Errorf("go vet -vettool=%s -ignore missed the finding:\n%s", name, r.stderr)
	}
	return findings
}

// Host code with one leaked buffer (reported at the return on line 11) and
// one leak silenced by a //gpukvet:ignore directive above its return.
const leaks = `package host

import "github.com/gpukvet/gpukvet/device"

func Leak(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	_ = b.Len()
	return nil
}

func Silenced(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	_ = b.Len()
	//gpukvet:ignore ownership the process exits right after this
	return nil
}

func WrongAnalyzer(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	_ = b.Len()
	//gpukvet:ignore races this names another analyzer
	return nil
}
`

// A correct kernel and host code that launches it and frees its buffers.
const kernel = `package saxpy

import "github.com/gpukvet/gpukvet/gpu"

// Saxpy computes y = a*x + y.
//
//gpu:kernel
func Saxpy(t gpu.Thread, a float32, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}
`

const launch = `package app

import (
	"example.com/m/saxpy"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

func Run(d *device.Device, xs, ys []float32) ([]float32, error) {
	x, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer x.Free()
	y, err := device.Upload(d, ys)
	if err != nil {
		return nil, err
	}
	defer y.Free()
	if err := d.Launch(saxpy.Saxpy, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: len(ys), Y: 1, Z: 1}, float32(2), x, y); err != nil {
		return nil, err
	}
	return y.Download()
}
`

// requireAnalyzer fails t at once, naming the analyzer, when the suite
// lacks one the test's expected output comes from.
func requireAnalyzer(t *testing.T, name string) {
	t.Helper()
	if analyzers.Lookup(name) == nil {
		t.Fatalf("the suite (analyzers.All) has no %s analyzer", name)
	}
}

// TestSuppressionEndToEnd checks that //gpukvet:ignore silences a real
// analyzer's finding, standalone and under go vet, and only that one.
func TestSuppressionEndToEnd(t *testing.T) {
	t.Parallel()
	requireAnalyzer(t, "ownership")
	dir := writeModule(t, map[string]string{"host/host.go": leaks})
	want := "host/host.go:11:2: ownership: buffer from device.Alloc at line 6 is not freed on the return at line 11\n" +
		"\thost/host.go:6:33: allocated here: buffer from device.Alloc at line 6\n" +
		"host/host.go:31:2: ownership: buffer from device.Alloc at line 25 is not freed on the return at line 31\n" +
		"\thost/host.go:25:33: allocated here: buffer from device.Alloc at line 25\n"
	r := gpukvet(t, dir, "./...")
	wantCode(t, r, 1)
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	r = run(t, dir, "go", "vet", "-vettool="+gpukvetBin, "./...")
	if r.code == 0 || !strings.Contains(r.stderr, "host.go:11:2:") || strings.Contains(r.stderr, "host.go:21:") || !strings.Contains(r.stderr, "host.go:31:2:") {
		t.Errorf("go vet: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestCleanKernelAndHost runs the whole suite on a correct kernel and the
// host code that launches it, across two packages (facts), both ways.
func TestCleanKernelAndHost(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"saxpy/saxpy.go": kernel, "app/app.go": launch})
	r := gpukvet(t, dir, "./...")
	wantCode(t, r, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("findings on correct code:\n%s%s", r.stdout, r.stderr)
	}
	r = run(t, dir, "go", "vet", "-vettool="+gpukvetBin, "./...")
	wantCode(t, r, 0)
}

// Kernels that break the dialect: a package variable (memspace, line 11),
// a race on out[0] (races, line 17), and the same race silenced (line 23).
const badKernels = `package k

import "github.com/gpukvet/gpukvet/gpu"

var scale float32 = 2

//gpu:kernel
func Scale(t gpu.Thread, x []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		x[i] *= scale
	}
}

//gpu:kernel
func Count(t gpu.Thread, out []float32) {
	out[0] += 1
}

//gpu:kernel
func Silenced(t gpu.Thread, out []float32) {
	//gpukvet:ignore races every thread adds one on purpose here
	out[0] += 1
}
`

func TestKernelFindings(t *testing.T) {
	t.Parallel()
	requireAnalyzer(t, "memspace")
	requireAnalyzer(t, "races")
	dir := writeModule(t, map[string]string{"k/k.go": badKernels})
	r := gpukvet(t, dir, "-f=json", "./...")
	wantCode(t, r, 1)
	var out jsonRun
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
	}
	var got []string
	for _, f := range out.Findings {
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Analyzer))
	}
	if want := []string{"k/k.go:11 memspace", "k/k.go:17 races"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s\n(output:\n%s)", strings.Join(got, "\n"), strings.Join(want, "\n"), r.stdout)
	}
}

// TestVersionOf: a build of a released module reports its version, a
// build from a checkout says it is a development build, with the commit.
func TestVersionOf(t *testing.T) {
	for _, tc := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "0.1.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.2.0-rc.1"}}, "0.2.0-rc.1"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.0.0-devel"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "0.0.0-devel+0123456789ab.dirty"},
	} {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("versionOf(%+v) = %q, want %q", tc.bi.Main, got, tc.want)
		}
	}
}
