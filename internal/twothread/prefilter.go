package twothread

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/targets"
)

// A quick test that settles most pairs of straight-line and unrolled code
// before a pair problem is built. Many accesses index with an affine
// function of the thread index and constants only (s[tid+256*j],
// s[tid*w+j], s[ty][tx+1]). For two such accesses with the same
// coefficients, two threads of one block meet only if the difference δ of
// their indices solves a·δ = c_b − c_a in every component, with δ ≠ 0 and
// |δ_d| < BlockDim_d. When no such δ exists the pair is race-free whatever
// the branch conditions say, so the full problem is skipped; otherwise it
// is asked as before. This keeps a barrier interval of n such accesses at
// n² constant-time tests (1000 accesses: well under a second) instead of n²
// pair problems.

// affine is c + Σ coef[d]·ThreadIdx_d.
type affine struct {
	coef [3]int64
	c    int64
}

// affineComps returns the affine form of each index of access a, or false.
func (k *Kernel) affineComps(a *Access) ([]affine, bool) {
	if a.aff != nil || a.affDone {
		return a.aff, a.aff != nil
	}
	a.affDone = true
	var out []affine
	for _, c := range a.comps {
		if c.any {
			return nil, false
		}
		f := affine{c: c.k}
		if !c.field {
			for _, t := range c.terms {
				g, ok := k.affineOf(t.fr, t.v, 0)
				if !ok {
					return nil, false
				}
				f = addAff(f, g, 1)
			}
		}
		out = append(out, f)
	}
	a.aff = out
	return out, true
}

func addAff(a, b affine, s int64) affine {
	for d := range a.coef {
		a.coef[d] += s * b.coef[d]
	}
	a.c += s * b.c
	return a
}

func (k *Kernel) affineOf(fr *frame, v ssa.Value, depth int) (affine, bool) {
	if depth > 32 {
		return affine{}, false
	}
	if c, ok := constOf(v); ok {
		return affine{c: c}, true
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return k.affineOf(pfr, a, depth+1)
		}
	case *ssa.Convert:
		if isInteger(v.Type()) && isInteger(v.X.Type()) {
			return k.affineOf(fr, v.X, depth+1)
		}
	case *ssa.ChangeType:
		return k.affineOf(fr, v.X, depth+1)
	case *ssa.UnOp:
		if v.Op == token.SUB {
			x, ok := k.affineOf(fr, v.X, depth+1)
			return addAff(affine{}, x, -1), ok
		}
		if x, f, ok := localField(v); ok {
			return k.affineField(fr, x, f, depth)
		}
	case *ssa.Field:
		return k.affineField(fr, v.X, v.Field, depth)
	case *ssa.BinOp:
		x, okx := k.affineOf(fr, v.X, depth+1)
		y, oky := k.affineOf(fr, v.Y, depth+1)
		if !okx || !oky {
			return affine{}, false
		}
		switch v.Op {
		case token.ADD:
			return addAff(x, y, 1), true
		case token.SUB:
			return addAff(x, y, -1), true
		case token.MUL:
			if x.coef == [3]int64{} {
				x, y = y, x
			}
			if y.coef == [3]int64{} {
				return addAff(affine{}, x, y.c), true
			}
		case token.SHL:
			if y.coef == [3]int64{} && y.c >= 0 && y.c < 30 {
				return addAff(affine{}, x, 1<<y.c), true
			}
		}
	}
	return affine{}, false
}

// affineField is component f of a Thread method's Dim3: ThreadIdx, or
// BlockDim when the kernel fixes the block shape.
func (k *Kernel) affineField(fr *frame, x ssa.Value, f int, depth int) (affine, bool) {
	v, _, ok := dim3Call(fr, x)
	if !ok || f < 0 || f > 2 {
		return affine{}, false
	}
	switch gpuapi.Call(&v.Call) {
	case gpuapi.ThreadIdx:
		if f >= k.shape.Dims {
			return affine{}, true
		}
		var a affine
		a.coef[f] = 1
		return a, true
	case gpuapi.BlockDim:
		if f >= k.shape.Dims {
			return affine{c: 1}, true
		}
		if b := k.shape.Block[f]; b > 0 {
			return affine{c: int64(b)}, true
		}
	}
	return affine{}, false
}

// SameBlockApart reports whether threads of one block can never make
// accesses a and b to the same element, by their affine indices alone.
func (k *Kernel) SameBlockApart(a, b *Access) bool {
	fa, ok1 := k.affineComps(a)
	fb, ok2 := k.affineComps(b)
	if !ok1 || !ok2 {
		return false
	}
	n := min(len(fa), len(fb))
	var delta [3]int64
	var fixed [3]bool
	for i := 0; i < n; i++ {
		if fa[i].coef != fb[i].coef {
			return false
		}
		dc := fb[i].c - fa[i].c // a·t₁ + c_a = a·t₂ + c_b: a·(t₁ − t₂) = dc
		dim := -1
		for d, c := range fa[i].coef {
			if c != 0 {
				if dim >= 0 {
					return false // two dimensions in one index: ask the solver
				}
				dim = d
			}
		}
		if dim < 0 {
			if dc != 0 {
				return true
			}
			continue
		}
		c := fa[i].coef[dim]
		if dc%c != 0 {
			return true
		}
		x := dc / c
		if fixed[dim] && delta[dim] != x {
			return true
		}
		delta[dim], fixed[dim] = x, true
	}
	nonzero := false
	for d := 0; d < 3; d++ {
		ext := int64(1)
		if d < k.shape.Dims {
			ext = int64(k.shape.Block[d])
			if ext <= 0 {
				ext = int64(targets.Static.MaxBlock[d]) // not fixed: at most what the target runs
			}
		}
		if fixed[d] {
			if delta[d] >= ext || -delta[d] >= ext {
				return true
			}
			nonzero = nonzero || delta[d] != 0
		} else if ext > 1 {
			nonzero = true
		}
	}
	return !nonzero
}
