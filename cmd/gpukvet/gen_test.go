package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The generator is tested in codegen/hostgen; these tests run the command
// end to end: flags, messages and exit codes.

func TestGenUsage(t *testing.T) {
	for _, args := range [][]string{{"a", "b"}, {"-o", "x/y.go"}, {"-o", "y_test.go"}, {"-nosuchflag"}, {"-targets", "ptx,metal"}} {
		if code := runGen(args, os.Stdout, new(bytes.Buffer)); code != 2 {
			t.Errorf("gen %v: exit %d, want 2", args, code)
		}
	}
	var stderr bytes.Buffer
	if code := runGen([]string{"./testdata/nosuchpkg"}, os.Stdout, &stderr); code != 2 {
		t.Errorf("gen of a missing package: exit %d, want 2 (%s)", code, stderr.String())
	}
}

func TestGenRefusesForeignFile(t *testing.T) {
	const pkg = "../../codegen/hostgen/testdata/genpkg"
	before, _ := os.ReadFile(pkg + "/kernels.go")
	var stderr bytes.Buffer
	if code := runGen([]string{"-o", "kernels.go", pkg}, os.Stdout, &stderr); code != 2 {
		t.Fatalf("gen -o kernels.go: exit %d, want 2", code)
	}
	if want := "kernels.go exists and was not written by gpukvet gen; not overwriting it (choose another name with -o)\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr %q does not end in %q", stderr.String(), want)
	}
	after, _ := os.ReadFile(pkg + "/kernels.go")
	if !bytes.Equal(before, after) {
		t.Fatal("gen overwrote a file it did not write")
	}
}

// TestGenCheck compiles an example for real: its committed file is up to
// date, and one for another architecture is not.
func TestGenCheck(t *testing.T) {
	const pkg = "../../examples/saxpy"
	var stdout, stderr bytes.Buffer
	if code := runGen([]string{"-check", pkg}, &stdout, &stderr); code != 0 || stdout.Len() > 0 {
		t.Fatalf("gen -check %s: exit %d, stdout %q, stderr %q", pkg, code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	if code := runGen([]string{"-check", "-arch", "sm_90", pkg}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "gpukvet_gen.go is out of date: run go generate (gpukvet gen) in ") {
		t.Errorf("gen -check -arch sm_90 %s: exit %d, stderr %q; want 1 and out of date", pkg, code, stderr.String())
	}
	stderr.Reset()
	if code := runGen([]string{"-check", "-o", "nosuch_gen.go", pkg}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "nosuch_gen.go is missing: run go generate") {
		t.Errorf("gen -check -o nosuch_gen.go %s: exit %d, stderr %q; want 1 and missing", pkg, code, stderr.String())
	}
}
