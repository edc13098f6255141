package twothread

import (
	"github.com/gpukvet/gpukvet/internal/targets"
	"github.com/gpukvet/gpukvet/internal/twothread/lincon"
)

// The symbolic variables of a pair problem and the range facts each brings.

type varKind int

const (
	vTid varKind = iota
	vBid
	vBdim
	vGdim
	vParam
	vLen
	vVal
	vAux
	vGid
)

type varKey struct {
	kind varKind
	copy int
	dim  int
	ref  valRef
	inst int // the loop instance of a value (loopinst.go)
}

type varInfo struct {
	name   string
	shared bool
	// The range its facts give, for bounding a dividend (divmod.go): at
	// least lo when loKnown, and below ub when ub is not nil.
	lo      int64
	loKnown bool
	ub      poly
}

type memoKey struct {
	ref  valRef
	t    int
	inst int
}

func (p *problem) newVar(info varInfo) lincon.Var {
	p.vars = append(p.vars, info)
	return lincon.Var(len(p.vars) - 1)
}

// v returns the variable for key, creating it (with its range facts).
func (p *problem) v(key varKey) poly {
	if x, ok := p.varIdx[key]; ok {
		return varPoly(x)
	}
	x := p.newVar(varInfo{shared: key.copy == 0})
	p.varIdx[key] = x
	xp := varPoly(x)
	switch key.kind {
	case vTid:
		bd := p.bdim(key.dim)
		p.base = append(p.base, ge(xp), lt(xp, bd))
		p.setRange(x, 0, bd)
	case vBid:
		gd := p.gdim(key.dim)
		p.base = append(p.base, ge(xp), lt(xp, gd))
		p.setRange(x, 0, gd)
		// BlockIdx·BlockDim + BlockDim ≤ GridDim·BlockDim: with a free block
		// shape this product bound is what keeps global indices of
		// different blocks apart in grid-stride loops.
		bd := p.bdim(key.dim)
		if _, c := bd.constant(); !c {
			lhs, ok1 := mulPoly(bd, add(xp, constPoly(1)))
			rhs, ok2 := mulPoly(bd, gd)
			if ok1 && ok2 {
				p.base = append(p.base, le(lhs, rhs))
			}
		}
	case vBdim:
		// A block extent the kernel does not fix is one the checked target
		// can run.
		maxv := int64(targets.Static.MaxBlock[key.dim])
		p.base = append(p.base, le(constPoly(1), xp), le(xp, constPoly(maxv)))
		p.setRange(x, 1, nil)
	case vGdim:
		p.base = append(p.base, le(constPoly(1), xp))
		p.setRange(x, 1, nil)
	case vLen:
		p.base = append(p.base, ge(xp))
		p.setRange(x, 0, nil)
	}
	return xp
}

// setRange records that variable x is at least lo and, when ub is not
// nil, below ub: what the facts stated with it say.
func (p *problem) setRange(x lincon.Var, lo int64, ub poly) {
	p.vars[x].lo, p.vars[x].loKnown, p.vars[x].ub = lo, true, ub
}

func (p *problem) aux(shared bool, t int) poly {
	if shared {
		t = 0
	}
	return varPoly(p.newVar(varInfo{name: "aux", shared: t == 0}))
}

func (p *problem) tid(t, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(0)
	}
	return p.v(varKey{kind: vTid, copy: t, dim: d})
}

func (p *problem) bid(t, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(0)
	}
	if g := p.k.shape.Grid[d]; g == 1 {
		return constPoly(0)
	}
	if !p.cross {
		t = 0
	}
	return p.v(varKey{kind: vBid, copy: t, dim: d})
}

// gid is component d of thread t's GlobalIdx, a variable G with
// G = BlockIdx·BlockDim + ThreadIdx. Keeping G whole lets a product such as
// w·G (a row-major index) be split on the sign of G₁ − G₂ in one piece.
func (p *problem) gid(t, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(0)
	}
	key := varKey{kind: vGid, copy: t, dim: d}
	if x, ok := p.varIdx[key]; ok {
		return varPoly(x)
	}
	g := p.v(key)
	prod, _ := mulPoly(p.bid(t, d), p.bdim(d))
	p.base = append(p.base, ge(g), eq(sub(g, add(prod, p.tid(t, d)))))
	ub, _ := mulPoly(p.gdim(d), p.bdim(d))
	p.setRange(g.single(), 0, ub)
	return g
}

func (p *problem) bdim(d int) poly { return p.extent(vBdim, p.k.shape.Block, d) }

func (p *problem) gdim(d int) poly { return p.extent(vGdim, p.k.shape.Grid, d) }

// extent is component d of the block or grid shape: 1 beyond the kernel's
// dimensions, the constant its directive gives, or else a variable.
func (p *problem) extent(kind varKind, fixed [3]int, d int) poly {
	if d >= p.k.shape.Dims {
		return constPoly(1)
	}
	if n := fixed[d]; n > 0 {
		return constPoly(int64(n))
	}
	return p.v(varKey{kind: kind, dim: d})
}

// ---- symbolic evaluation ----

func (x poly) single() lincon.Var {
	for _, t := range x {
		return t.vars[0]
	}
	return 0
}

// isSharedPoly reports whether every variable of x is shared.
func (p *problem) isSharedPoly(x poly) bool {
	for _, tm := range x {
		for _, v := range tm.vars {
			if !p.vars[v].shared {
				return false
			}
		}
	}
	return true
}
