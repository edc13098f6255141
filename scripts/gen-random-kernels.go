//go:build ignore

// gen-random-kernels writes packages of random kernels (shared memory,
// barriers, atomics, flags, guards and loops) for scripts/compare-gpukvet.sh,
// which runs two gpukvet binaries on them and compares what they say and
// emit. Usage: go run scripts/gen-random-kernels.go DIR [SEED]; the
// output depends only on the seed.
package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// g writes one kernel's statements.
type g struct {
	r     *rand.Rand
	b     strings.Builder
	depth int
	vars  int
	S     int
}

// pick returns one of xs.
func (g *g) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

// c returns a small constant.
func (g *g) c() int { return g.r.Intn(8) }

// sidx returns an index into the shared array s, which a guard keeps in bounds.
func (g *g) sidx() string {
	c := g.c()
	return g.pick(
		"tid", fmt.Sprintf("tid+%d", c), fmt.Sprintf("(tid+%d)%%%d", c, g.S), fmt.Sprintf("%d-tid", g.S-1),
		"tid/2", "tid*2", fmt.Sprint(c), fmt.Sprintf("tid^%d", c), "(tid+1)%"+fmt.Sprint(g.S), "tid&^1", "w",
	)
}

// gidx returns an index into a global slice.
func (g *g) gidx() string {
	c := g.c()
	return g.pick("i", fmt.Sprintf("i+%d", c), "n-1-i", "t.BlockIdx().X", "i/2", "2*i", fmt.Sprint(c), "i^1", "tid", "w")
}

// cond returns a condition, uniform or not.
func (g *g) cond() string {
	c := g.c()
	return g.pick(fmt.Sprintf("tid < %d", c*4), "tid%2 == 0", "i < n", fmt.Sprintf("n > %d", c), "tid == 0",
		"v > 0", fmt.Sprintf("t.BlockIdx().X == %d", c), "ok", "!ok", "ok && tid > 0", "n%2 == 0 || tid < 4")
}

// line writes one statement at the current depth.
func (g *g) line(f string, a ...any) {
	g.b.WriteString(strings.Repeat("\t", g.depth+1))
	fmt.Fprintf(&g.b, f, a...)
	g.b.WriteString("\n")
}

// stmts writes n random statements.
func (g *g) stmts(n int) {
	for range n {
		g.stmt()
	}
}

// stmt writes one random statement, nesting at most three deep.
func (g *g) stmt() {
	k := g.r.Intn(13)
	if g.depth >= 3 && k >= 8 {
		k = g.r.Intn(8)
	}
	switch k {
	case 0, 1:
		g.line("if x := %s; x >= 0 && x < %d {", g.sidx(), g.S)
		g.line("\ts[x] = v + %d", g.c())
		g.line("}")
	case 2:
		g.line("if x := %s; x >= 0 && x < %d {", g.sidx(), g.S)
		g.line("\tv += s[x]")
		g.line("}")
	case 3:
		g.line("if y := %s; y >= 0 && y < len(out) {", g.gidx())
		g.line("\tout[y] = v")
		g.line("}")
	case 4:
		g.line("t.Barrier()")
	case 5:
		g.line("if y := %s; y >= 0 && y < len(out) {", g.gidx())
		g.line("\tgpu.AtomicAdd(&out[y], v)")
		g.line("}")
	case 6:
		g.line("ok = %s", g.cond())
	case 7:
		g.line("w = %s", g.pick("tid", "int(v)&7", "w+1", "tid+1", "n-tid"))
	case 8, 9:
		g.line("if %s {", g.cond())
		g.depth++
		g.stmts(1 + g.r.Intn(3))
		g.depth--
		if g.r.Intn(2) == 0 {
			g.line("} else {")
			g.depth++
			g.stmts(1 + g.r.Intn(2))
			g.depth--
		}
		g.line("}")
	case 10, 11:
		g.vars++
		k := fmt.Sprintf("k%d", g.vars)
		g.line("for %s := 0; %s < %s; %s++ {", k, k, g.pick("2", "4", "n", "3"), k)
		g.depth++
		g.stmts(1 + g.r.Intn(3))
		g.depth--
		g.line("}")
	case 12:
		g.line("if y := %s; y >= 0 && y < len(a) {", g.gidx())
		g.line("\tv = a[y] * %d", g.c()+1)
		g.line("}")
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/gen-random-kernels.go DIR [SEED]")
		os.Exit(2)
	}
	out := os.Args[1]
	seed := int64(19)
	if len(os.Args) > 2 {
		fmt.Sscan(os.Args[2], &seed)
	}
	npkg, per := 30, 10
	r := rand.New(rand.NewSource(seed))
	for p := range npkg {
		dir := filepath.Join(out, fmt.Sprintf("p%02d", p))
		os.MkdirAll(dir, 0o755)
		var src strings.Builder
		fmt.Fprintf(&src, "package p%02d\n\nimport \"github.com/gpukvet/gpukvet/gpu\"\n", p)
		for k := range per {
			gg := &g{r: r, S: 32 << r.Intn(3)}
			blk := gg.pick("block=32", fmt.Sprintf("block=%d", gg.S), "", "block=64")
			gg.stmts(3 + r.Intn(8))
			fmt.Fprintf(&src, "\n//gpu:kernel %s\nfunc K%d(t gpu.Thread, n int, a []float32, out []float32) {\n", blk, k)
			fmt.Fprintf(&src, "\ts := gpu.Shared[[%d]float32](t)\n\ttid := t.ThreadIdx().X\n\ti := t.GlobalIdx().X\n\tvar v float32\n\tok, w := false, 0\n", gg.S)
			src.WriteString(gg.b.String())
			src.WriteString("\t_, _, _, _, _, _ = s, v, ok, w, tid, i\n}\n")
		}
		os.WriteFile(filepath.Join(dir, "k.go"), []byte(src.String()), 0o644)
	}
}
