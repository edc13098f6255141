package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimKernels is the module's kernel file: Shift races on shared memory
// (no barrier between the write and the neighbour's read) and Scale has a
// barrier that threads past an early return skip, which divergence offers
// to fix.
const nvimKernels = `package k

import "github.com/gpukvet/gpukvet/gpu"

// Shift moves each element one place to the left within a block.
//
//gpu:kernel block=256
func Shift(t gpu.Thread, x, y []float32) {
	tile := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	g := t.GlobalIdx().X
	tile[i] = x[g]
	y[g] = tile[(i+1)%256]
}

// Scale adds a neighbour to each element.
//
//gpu:kernel
func Scale(t gpu.Thread, n int, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	if i >= n {
		return
	}
	s[tid] = in[i]
	t.Barrier()
	out[i] = s[(tid+1)%256]
}
`

// TestNeovim runs gpukvet lsp under Neovim's built-in LSP client, headless
// (testdata/nvim/lsp.lua): the diagnostics arrive at the right lines, the
// quick fix applies and its finding goes, and so does the race once the
// buffer is fixed. It skips only when nvim is not installed
// (scripts/install-neovim.sh installs it).
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (scripts/install-neovim.sh installs it)")
	}
	t.Parallel()
	dir := writeModule(t, map[string]string{"k/k.go": nvimKernels})
	lineOf := func(text string) int {
		return strings.Count(nvimKernels[:strings.Index(nvimKernels, text)], "\n") + 1
	}
	transcript := filepath.Join(t.TempDir(), "transcript.txt")
	script, err := filepath.Abs("testdata/nvim/lsp.lua")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "--noplugin",
		"-c", "luafile "+script, "k/k.go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOWORK=off", "GOFLAGS=-mod=mod",
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(),
		"GPUKVET_BIN="+gpukvetBin,
		"GPUKVET_ROOT="+dir,
		"GPUKVET_TRANSCRIPT="+transcript,
		fmt.Sprintf("GPUKVET_RACE_LINE=%d", lineOf("y[g] = tile")),
		fmt.Sprintf("GPUKVET_BARRIER_LINE=%d", lineOf("t.Barrier()")),
	)
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(transcript)
	t.Logf("Neovim transcript:\n%s", log)
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	for _, want := range []string{"ok: races at line", "ok: quick fix applied", "ok: no findings left", "ok: server shut down, exit code 0"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
}
