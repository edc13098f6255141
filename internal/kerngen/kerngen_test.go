package kerngen_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/gpukvet/gpukvet/internal/kerngen"
)

var (
	update = flag.Bool("update", false, "rewrite the generated packages in testdata/generated")
	seed   = flag.Uint64("random.seed", 1, "with -update: the seed of the random programs")
	count  = flag.Int("random.n", 40, "with -update: how many random programs")
)

// recorded reads the seed and count the committed random programs were
// written with (from the source, which need not compile).
func recorded(t *testing.T) (seed uint64, n int) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "generated", "random", "kernels.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Seed\s*=\s*(\d+)\s*Count\s*=\s*(\d+)`).FindSubmatch(src)
	if m == nil {
		t.Fatal("testdata/generated/random/kernels.go records no Seed and Count")
	}
	seed, _ = strconv.ParseUint(string(m[1]), 10, 64)
	n, _ = strconv.Atoi(string(m[2]))
	return seed, n
}

// TestCommitted checks that the packages in testdata/generated are what
// the generator writes (the random programs with the seed and count the
// package records); -update rewrites them, -random.seed and -random.n
// choosing other random programs for a larger run.
func TestCommitted(t *testing.T) {
	ops, opsTable, err := kerngen.Ops("ops")
	if err != nil {
		t.Fatal(err)
	}
	s, n := recorded(t)
	if *update {
		s, n = *seed, *count
	}
	rk, rt := kerngen.RandomSource("random", s, kerngen.Random(s, n))
	files := map[string]string{"ops/kernels.go": ops, "ops/table.go": opsTable, "random/kernels.go": rk, "random/table.go": rt}
	for name, want := range files {
		path := filepath.Join("..", "..", "testdata", "generated", name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not what internal/kerngen writes: run go test ./internal/kerngen -run TestCommitted -update", path)
		}
	}
}

// TestRandomDeterministic checks that a seed gives the same programs.
func TestRandomDeterministic(t *testing.T) {
	a, _ := kerngen.RandomSource("p", 3, kerngen.Random(3, 5))
	b, _ := kerngen.RandomSource("p", 3, kerngen.Random(3, 5))
	if a != b {
		t.Error("two runs with one seed wrote different programs")
	}
}

// TestShrinkKeepsSharedStage checks that shrinking never keeps a
// shared-memory read without the write before it: such a program reads
// undefined memory, and a backend that gives other bits than Go's is right.
// (R007 of seed 2 shrank to one once, hiding the bug it showed.)
func TestShrinkKeepsSharedStage(t *testing.T) {
	read := regexp.MustCompile(`= .*s\[\(tid\+\d+\)%\d+\]`)
	for _, p := range kerngen.Random(2, 40) {
		if !read.MatchString(p.Source()) {
			continue
		}
		small := kerngen.Shrink(p, func(q *kerngen.Program) bool { return read.MatchString(q.Source()) })
		src := small.Source()
		if !regexp.MustCompile(`s\[tid\] = `).MatchString(src) || !regexp.MustCompile(`t\.Barrier\(\)`).MatchString(src) {
			t.Fatalf("%s shrank to a shared-memory read without its write and barrier:\n%s", p.Name, src)
		}
	}
}

// TestSharedStageOneNaN checks that a float handed through shared memory
// stores one NaN's bits for every NaN: Go leaves a computed NaN's sign and
// payload to the hardware, and R007 of seed 2 handed Inf-Inf's bits to an
// int32, 0xffc00000 in Go on amd64 and 0x7fc00000 on lavapipe.
func TestSharedStageOneNaN(t *testing.T) {
	store := regexp.MustCompile(`(?m)^\t+s\[tid\] = (uint64\()?math\.Float(32|64)bits\((v\d+)\)\)?\n\t+if (v\d+) != (v\d+) \{\n\t+s\[tid\] = 0x7f`)
	bare := regexp.MustCompile(`s\[tid\] = (uint64\()?math\.Float`)
	n := 0
	for _, p := range kerngen.Random(2, 40) {
		src := p.Source()
		guarded := len(store.FindAllString(src, -1))
		if all := len(bare.FindAllString(src, -1)); guarded != all {
			t.Errorf("%s: %d of %d float stores to shared memory do not store one NaN for every NaN:\n%s", p.Name, all-guarded, all, src)
		}
		n += guarded
	}
	if n == 0 {
		t.Error("no program of seed 2 hands a float through shared memory: the test tests nothing")
	}
}

// TestCandidatesPrefixes checks the prefixes Candidates adds: each
// candidate is smaller than its program (fewer statements or device
// functions), there is a prefix of every length
// that does not cut a shared-memory stage, and none cuts one.
func TestCandidatesPrefixes(t *testing.T) {
	for _, p := range kerngen.Random(2, 40) {
		all := heads(p.Stmts)
		lengths := map[int]bool{}
		for _, q := range kerngen.Candidates(p) {
			h := heads(q.Stmts)
			if len(h) > len(all) || len(h) == len(all) && len(q.Devices) >= len(p.Devices) {
				t.Fatalf("%s: a candidate of %d statements and %d device functions is not smaller than the program (%d and %d)", p.Name, len(h), len(q.Devices), len(all), len(p.Devices))
			}
			if slices.Equal(h, all[:len(h)]) {
				lengths[len(h)] = true
				src := q.Source()
				if regexp.MustCompile(`s\[tid\] = `).MatchString(src) != regexp.MustCompile(`t\.Barrier\(\)`).MatchString(src) {
					t.Errorf("%s: a prefix cuts a shared-memory stage:\n%s", p.Name, src)
				}
			}
		}
		for k := 1; k < len(all); k++ {
			if !lengths[k] && !cutsWhole(p.Stmts, k) {
				t.Errorf("%s (%d statements): no prefix of %d statements", p.Name, len(all), k)
			}
		}
	}
}

// cutsWhole reports whether keeping the first k statements of ss, in
// pre-order, would cut a Whole block.
func cutsWhole(ss []*kerngen.Stmt, k int) bool {
	start := 0
	for _, s := range ss {
		size := len(heads([]*kerngen.Stmt{s}))
		if s.Whole && start < k && k < start+size {
			return true
		}
		start += size
	}
	return false
}

// heads lists the statements of ss in pre-order.
func heads(ss []*kerngen.Stmt) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Head)
		out = append(out, heads(s.Body)...)
		out = append(out, heads(s.Else)...)
	}
	return out
}
