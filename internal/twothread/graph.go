package twothread

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// A frame is one inlined activation of a kernel or device function: the
// kernel itself, or a device function called from a call site of its
// parent frame. Device functions of the kernel's package are inlined at
// each call, so that their accesses and barriers take part in the
// kernel's barrier intervals with the caller's arguments.
type frame struct {
	fn     *ssa.Function
	parent *frame
	call   *ssa.Call // the call in parent
	node   *node     // the node of parent holding the call
	depth  int
	calls  map[*ssa.Call]*frame
	first  map[*ssa.BasicBlock]*node // first node of each block
	last   map[*ssa.BasicBlock]*node // last node of each block
	nodeOf map[ssa.Instruction]*node
	dom    *domInfo
}

// A node is a barrier-free piece of a basic block in one frame, or a
// barrier. The nodes of a kernel and its inlined device functions form one
// graph; barrier intervals are the regions of it between barrier nodes.
type node struct {
	id      int
	fr      *frame
	block   *ssa.BasicBlock
	instrs  []ssa.Instruction
	barrier *ssa.Call
	succs   []*node
}

// maxInline bounds inlining depth (the dialect forbids recursion; memspace
// reports it, and this keeps the analysis finite anyway).
const maxInline = 16

// maxNodes bounds the inlined graph of one kernel; calls past it are not
// inlined (their accesses and barriers are then not seen).
const maxNodes = 20000

type graph struct {
	nodes []*node
	entry *node
	root  *frame
}

func (g *graph) newNode(fr *frame, b *ssa.BasicBlock) *node {
	n := &node{id: len(g.nodes), fr: fr, block: b}
	g.nodes = append(g.nodes, n)
	return n
}

// build lays out fn's blocks as nodes in a new frame, inlining device
// calls. It returns the frame, its entry node and the nodes that return.
func (g *graph) build(fn *ssa.Function, parent *frame, call *ssa.Call, callNode *node) (*frame, *node, []*node) {
	fr := &frame{fn: fn, parent: parent, call: call, node: callNode,
		calls: map[*ssa.Call]*frame{}, first: map[*ssa.BasicBlock]*node{}, last: map[*ssa.BasicBlock]*node{}, nodeOf: map[ssa.Instruction]*node{}}
	if parent != nil {
		fr.depth = parent.depth + 1
	}
	fr.dom = newDomInfo(fn)
	last := fr.last
	var exits []*node
	for _, b := range fn.Blocks {
		cur := g.newNode(fr, b)
		fr.first[b] = cur
		for _, in := range b.Instrs {
			c, _ := in.(*ssa.Call)
			switch {
			case c != nil && gpuapi.Call(&c.Call).IsBarrier():
				bar := g.newNode(fr, b)
				bar.barrier = c
				fr.nodeOf[in] = bar
				next := g.newNode(fr, b)
				cur.succs = append(cur.succs, bar)
				bar.succs = append(bar.succs, next)
				cur = next
			case c != nil && fr.depth < maxInline && len(g.nodes) < maxNodes && inlinable(fn, c):
				cur.instrs = append(cur.instrs, in)
				fr.nodeOf[in] = cur
				sub, entry, rets := g.build(c.Call.StaticCallee(), fr, c, cur)
				fr.calls[c] = sub
				next := g.newNode(fr, b)
				cur.succs = append(cur.succs, entry)
				for _, r := range rets {
					r.succs = append(r.succs, next)
				}
				cur = next
			default:
				cur.instrs = append(cur.instrs, in)
				fr.nodeOf[in] = cur
			}
		}
		last[b] = cur
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			exits = append(exits, cur)
		}
	}
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			last[b].succs = append(last[b].succs, fr.first[s])
		}
	}
	if len(fn.Blocks) == 0 {
		n := g.newNode(fr, nil)
		return fr, n, []*node{n}
	}
	return fr, fr.first[fn.Blocks[0]], exits
}

// inlinable reports whether c calls a function with a body in the same
// package as caller (a device function of the kernel's package).
func inlinable(caller *ssa.Function, c *ssa.Call) bool {
	callee := c.Call.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	return pkgOf(callee) == pkgOf(caller)
}

func pkgOf(fn *ssa.Function) *types.Package {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj := fn.Object(); obj != nil {
		return obj.Pkg()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg
	}
	return nil
}

// domInfo answers which branch decisions hold at a block of one function.
type domInfo struct {
	fn *ssa.Function
	// guards[b] lists the If blocks whose latest decision before b is
	// known, and which successor it took.
	guards map[*ssa.BasicBlock][]guard
}

type guard struct {
	cond  ssa.Value
	taken bool // true: the then-branch (Succs[0])
}

func newDomInfo(fn *ssa.Function) *domInfo {
	return &domInfo{fn: fn, guards: map[*ssa.BasicBlock][]guard{}}
}

// guardsOf returns the conditions that hold whenever b executes: for an If
// block P that dominates b, the decision P took last is known when one
// successor cannot reach b without passing P again.
func (d *domInfo) guardsOf(b *ssa.BasicBlock) []guard {
	if gs, ok := d.guards[b]; ok {
		return gs
	}
	var gs []guard
	for p := b.Idom(); p != nil; p = p.Idom() {
		ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		then, els := p.Succs[0], p.Succs[1]
		canThen := reachesAvoiding(then, b, p)
		canElse := reachesAvoiding(els, b, p)
		switch {
		case canThen && !canElse:
			gs = append(gs, guard{ifi.Cond, true})
		case canElse && !canThen:
			gs = append(gs, guard{ifi.Cond, false})
		}
	}
	d.guards[b] = gs
	return gs
}

// reachesAvoiding reports whether to is reachable from from without
// passing through avoid (from == to counts).
func reachesAvoiding(from, to, avoid *ssa.BasicBlock) bool {
	if from == avoid {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{from: true}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		for _, s := range b.Succs {
			if s != avoid && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}
