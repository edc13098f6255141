package golangci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// TestReleasePlugin runs the release step of docs/releasing.md on a copy of
// this module: scripts/release-plugin.sh drops the replace of gpukvet by the
// checkout and requires a released gpukvet, which a file module proxy made
// from this checkout serves, and the plugin must then tidy, build and vet
// against that release alone; -dev must bring the replace back.
func TestReleasePlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the plugin against a release of gpukvet from a file proxy")
	}
	const version = "v0.99.0" // no real release: the proxy is local
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	proxy := fileProxy(t, repo, version)
	copyDir := copyPlugin(t, repo)
	// A module cache of its own, so that the fake release never reaches the
	// real one; every other module comes from the real cache, read as a
	// proxy, or failing that (a cold cache lacks go.mod files of the
	// module graph) from GOPROXY as configured. -trimpath lets the build
	// reuse the compiled packages.
	modCache := filepath.Join(t.TempDir(), "modcache")
	realCache := goEnv(t, "GOMODCACHE")
	env := append(os.Environ(), "PLUGIN_DIR="+copyDir, "GOMODCACHE="+modCache,
		"GOPROXY=file://"+proxy+",file://"+filepath.Join(realCache, "cache/download")+","+goEnv(t, "GOPROXY"),
		"GOSUMDB=off", "GOFLAGS=-trimpath")
	t.Cleanup(func() { command(".", env, "go", "clean", "-modcache") })

	script := filepath.Join(repo, "scripts/release-plugin.sh")
	if out, err := command(".", env, script, version); err != nil {
		t.Fatalf("release-plugin.sh %s: %v\n%s", version, err, out)
	}
	mod, _ := os.ReadFile(filepath.Join(copyDir, "go.mod"))
	if strings.Contains(string(mod), "replace") || !strings.Contains(string(mod), "github.com/gpukvet/gpukvet "+version) {
		t.Errorf("released go.mod keeps a replace or lacks the require of %s:\n%s", version, mod)
	}
	if out, err := command(".", env, script, "-dev"); err != nil {
		t.Fatalf("release-plugin.sh -dev: %v\n%s", err, out)
	}
	mod, _ = os.ReadFile(filepath.Join(copyDir, "go.mod"))
	if !strings.Contains(string(mod), "replace github.com/gpukvet/gpukvet => ../..") {
		t.Errorf("-dev did not restore the replace:\n%s", mod)
	}
	if out, err := command(".", env, script, "0.1"); err == nil {
		t.Errorf("release-plugin.sh 0.1 accepted a version that is not vX.Y.Z:\n%s", out)
	}
}

// copyPlugin copies this module to plugins/golangci of a folder that links
// to everything else of the checkout in repo, so that the development
// replace (../..) reaches gpukvet there too, and returns the copy's folder.
func copyPlugin(t *testing.T, repo string) string {
	t.Helper()
	root := t.TempDir()
	ents, err := os.ReadDir(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != "plugins" {
			if err := os.Symlink(filepath.Join(repo, e.Name()), filepath.Join(root, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := filepath.Join(root, "plugins/golangci")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := command(".", nil, "cp", "-R", ".", dir); err != nil {
		t.Fatalf("copying the plugin module: %v\n%s", err, out)
	}
	return dir
}

// fileProxy writes a module proxy folder serving the module in repo as
// github.com/gpukvet/gpukvet at version, and returns the folder.
func fileProxy(t *testing.T, repo, version string) string {
	t.Helper()
	proxy := t.TempDir()
	m := module.Version{Path: "github.com/gpukvet/gpukvet", Version: version}
	dir := filepath.Join(proxy, "github.com/gpukvet/gpukvet/@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	z, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	if err := zip.CreateFromDir(z, m, repo); err != nil {
		t.Fatalf("zipping the checkout as %s: %v", version, err)
	}
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"2026-12-05T00:00:00Z"}`,
		version + ".mod":  string(gomod),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proxy
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := command(".", os.Environ(), "go", "env", name)
	if err != nil {
		t.Fatalf("go env %s: %v\n%s", name, err, out)
	}
	return strings.TrimSpace(string(out))
}
