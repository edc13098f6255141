package golangci

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// golangciVersion is the golangci-lint release the test builds against.
const golangciVersion = "v2.15.0"

// The module the custom golangci-lint runs on: a racy kernel (line 12), the
// same race silenced by //nolint:gpukvet and by //gpukvet:ignore, and an
// ownership leak, which the settings disable.
const kernels = `package k

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=256
func Shift(t gpu.Thread, x, y []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	g := t.GlobalIdx().X
	tile[i] = x[g]
	// The read of the neighbour's element races with its write.
	y[g] = tile[(i+1)%256]
}

//gpu:kernel block=256
func NoLint(t gpu.Thread, x, y []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	g := t.GlobalIdx().X
	tile[i] = x[g]
	y[g] = tile[(i+1)%256] //nolint:gpukvet // silenced by golangci-lint
}

//gpu:kernel block=256
func Ignored(t gpu.Thread, x, y []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	g := t.GlobalIdx().X
	tile[i] = x[g]
	//gpukvet:ignore races silenced by gpukvet's own directive
	y[g] = tile[(i+1)%256]
}
`

const host = `package h

import "github.com/gpukvet/gpukvet/device"

// Leak allocates a buffer it never frees: ownership reports it unless
// disabled.
func Leak(d *device.Device) error {
	_, err := device.Alloc[float32](d, 10)
	return err
}
`

// TestCustomGolangciLint builds a custom golangci-lint with this plugin
// (golangci-lint custom, against this checkout) and runs it on a module
// with findings; it logs the build and run times and gpukvet's standalone
// time on the same module. It needs golangci-lint itself, which it builds
// from the Go module proxy (or $GOLANGCI_LINT), and makes the git
// repository that golangci-lint custom clones from the module cache.
func TestCustomGolangciLint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint twice: minutes")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gcl := golangciLint(t)
	gitURL := localGolangciRepo(t)

	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{
		"go.mod": fmt.Sprintf("module example.com/m\n\ngo 1.26.0\n\nrequire github.com/gpukvet/gpukvet v0.0.0\n\nreplace github.com/gpukvet/gpukvet => %s\n", repo),
		"go.sum": string(sum),
		"k/k.go": kernels,
		"h/h.go": host,
		".custom-gcl.yml": fmt.Sprintf(`version: %s
name: custom-gcl
destination: .
plugins:
  - module: github.com/gpukvet/gpukvet/plugins/golangci
    path: %s
  # The plugin's own replace of gpukvet by this checkout does not carry
  # over: give golangci-lint's build the same replace.
  - module: github.com/gpukvet/gpukvet
    import: github.com/gpukvet/gpukvet/analyzers
    path: %s
`, golangciVersion, filepath.Join(repo, "plugins/golangci"), repo),
		".golangci.yml": `version: "2"
linters:
  default: none
  enable:
    - gpukvet
  settings:
    custom:
      gpukvet:
        type: module
        description: GPU kernel checks (races, divergence, memspace, ownership)
        settings:
          disable: [ownership]
`,
	})
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod",
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=url."+gitURL+".insteadOf",
		"GIT_CONFIG_VALUE_0=https://github.com/golangci/golangci-lint.git")

	start := time.Now()
	out, err := command(dir, env, gcl, "custom", "-v")
	build := time.Since(start)
	if err != nil {
		t.Fatalf("golangci-lint custom: %v\n%s", err, out)
	}
	t.Logf("golangci-lint custom: %v", build.Round(time.Second))

	start = time.Now()
	out, err = command(dir, env, filepath.Join(dir, "custom-gcl"), "run", "--allow-parallel-runners", "--output.json.path=stdout", "--show-stats=false", "./...")
	runTime := time.Since(start)
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("custom-gcl run: %v (want exit status 1: findings)\n%s", err, out)
	}
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	if err := json.Unmarshal(firstLine(out), &report); err != nil {
		t.Fatalf("custom-gcl output is not JSON: %v\n%s", err, out)
	}
	var got []string
	for _, is := range report.Issues {
		got = append(got, fmt.Sprintf("%s:%d %s: %s", is.Pos.Filename, is.Pos.Line, is.FromLinter, is.Text))
	}
	t.Logf("custom-gcl run (%v):\n%s", runTime.Round(time.Millisecond), strings.Join(got, "\n"))
	if len(got) != 1 || !strings.HasPrefix(got[0], "k/k.go:12 gpukvet: races: data race on shared tile") {
		t.Errorf("issues %q; want one: the race at k/k.go:12 (the //nolint and //gpukvet:ignore ones silenced, ownership disabled)", got)
	}

	// The same module under gpukvet standalone, for comparison.
	gpukvet := filepath.Join(t.TempDir(), "gpukvet")
	if out, err := command(filepath.Join(repo, "cmd/gpukvet"), env, "go", "build", "-o", gpukvet, "."); err != nil {
		t.Fatalf("building gpukvet: %v\n%s", err, out)
	}
	start = time.Now()
	out, _ = command(dir, env, gpukvet, "./...")
	t.Logf("gpukvet standalone (%v):\n%s", time.Since(start).Round(time.Millisecond), out)
	if !bytes.Contains(out, []byte("k/k.go:12:")) {
		t.Errorf("gpukvet standalone does not report the race: %s", out)
	}
}

// golangciLint returns a golangci-lint binary of golangciVersion: the
// one $GOLANGCI_LINT names, or one built from the module proxy into the
// user cache (kept for the next run).
func golangciLint(t *testing.T) string {
	if p := os.Getenv("GOLANGCI_LINT"); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	bin := filepath.Join(cache, "gpukvet-test", "golangci-lint-"+golangciVersion)
	if _, err := os.Stat(filepath.Join(bin, "golangci-lint")); err == nil {
		return filepath.Join(bin, "golangci-lint")
	}
	cmd := exec.Command("go", "install", "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@"+golangciVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot install golangci-lint %s (no module proxy?): %v\n%s", golangciVersion, err, out)
	}
	return filepath.Join(bin, "golangci-lint")
}

// localGolangciRepo makes a git repository of golangci-lint's module source
// (from the module cache), tagged golangciVersion, for golangci-lint custom
// to clone instead of GitHub, and returns its URL.
func localGolangciRepo(t *testing.T) string {
	out, err := command(".", append(os.Environ(), "GOWORK=off", "GOFLAGS="), "go", "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+golangciVersion)
	if err != nil {
		t.Skipf("cannot download golangci-lint's source %s: %v\n%s", golangciVersion, err, out)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "golangci-lint")
	if out, err := command(".", nil, "cp", "-R", mod.Dir, dir); err != nil {
		t.Fatalf("copying golangci-lint's source: %v\n%s", err, out)
	}
	if out, err := command(".", nil, "chmod", "-R", "u+w", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=gpukvet", "GIT_AUTHOR_EMAIL=gpukvet@localhost",
		"GIT_COMMITTER_NAME=gpukvet", "GIT_COMMITTER_EMAIL=gpukvet@localhost")
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"commit", "-q", "-m", "golangci-lint " + golangciVersion + " from the module cache"},
		{"tag", golangciVersion},
	} {
		if out, err := command(dir, gitEnv, "git", args...); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return "file://" + dir
}

func command(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd.CombinedOutput()
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstLine returns the first line of out that starts a JSON object.
func firstLine(out []byte) []byte {
	for _, l := range bytes.Split(out, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("{")) {
			return l
		}
	}
	return out
}
