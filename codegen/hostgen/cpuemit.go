package hostgen

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
)

// uses reports which parameters piece pc reads and whether it names the
// thread (other than in the rewritten index calls).
func (g *cpuGen) uses(pc *piece) (params []int, thread bool) {
	info := g.p.TypesInfo
	seen := map[int]bool{}
	for _, root := range g.pieceNodes(pc) {
		ast.Inspect(root, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && g.indexOf[call] {
				return false
			}
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := info.Uses[id]
			if obj == nil {
				return true
			}
			if obj == g.thread {
				thread = true
			}
			if i, ok := g.params[obj]; ok && g.hoisted[obj] == "" && !seen[i] {
				seen[i] = true
				params = append(params, i)
			}
			return true
		})
	}
	sort.Ints(params)
	return params, thread
}

// prologue is the start of a piece's per-thread iteration; record says
// to record the running thread for a trap report.
func (g *cpuGen) prologue(pc *piece, record bool) string {
	var b strings.Builder
	if g.barrier {
		b.WriteString("gpukvetP := &gpukvetL[gpukvetI]\nif gpukvetP.gpukvetDone {\ncontinue\n}\n")
	}
	params, thread := g.uses(pc)
	if thread {
		fmt.Fprintf(&b, "%s := %s\n", g.thread.Name(), threadAt)
	} else if record {
		b.WriteString(recordX + "\n")
	}
	for _, i := range params {
		name := ""
		for obj, j := range g.params {
			if j == i {
				name = obj.Name()
			}
		}
		fmt.Fprintf(&b, "%s := gpukvetArg%d\n", name, i)
	}
	return b.String()
}

// emitPiece is the loop that runs piece pc's statements for every thread.
func (g *cpuGen) emitPiece(pc *piece) string {
	var b strings.Builder
	for _, s := range pc.stmts {
		b.WriteString(g.nodeText(s) + "\n")
	}
	lin := ""
	if g.barrier {
		lin = "lin"
	}
	var fast *fastCopy
	if pc.fast != "" {
		fast = &fastCopy{cond: pc.fast, body: g.prologue(pc, !pc.trapFree) + b.String()}
	}
	return threadLoops(pc.label, lin, g.prologue(pc, true)+b.String(), fast)
}

// emitCond is the loop that evaluates a condition around a barrier for
// every thread, and the check that they agree.
func (g *cpuGen) emitCond(pc *piece) string {
	yes, no := fmt.Sprintf("gpukvetYes%d", pc.id), fmt.Sprintf("gpukvetNo%d", pc.id)
	var b strings.Builder
	b.WriteString(g.prologue(pc, true))
	if pc.pre != nil {
		b.WriteString(g.directive(pc.pre.Pos()) + g.nodeText(pc.pre) + "\n")
	}
	fmt.Fprintf(&b, "if %s(%s) {\nif %s < 0 {\n%s = gpukvetI\n}\n} else if %s < 0 {\n%s = gpukvetI\n}\n",
		g.directive(pc.cond.Pos()), g.nodeText(pc.cond), yes, yes, no, no)
	out := fmt.Sprintf("%s, %s := -1, -1\n", yes, no) + threadLoops("", "lin", b.String(), nil)
	op := ":="
	if pc.assign {
		op = "="
	}
	return out + fmt.Sprintf("%s%s %s gpukvetB.PhaseUniform(%s, %s)\n", g.directive(pc.pos), pc.result, op, yes, no)
}

// emitNode is the code of node n of the split body: a piece's loop, a
// barrier, or the branch or loop around a barrier.
func (g *cpuGen) emitNode(n cpuNode) string {
	switch n := n.(type) {
	case *piece:
		return g.emitPiece(n)
	case *barrierNode:
		// Threads that returned: none, the barrier passes; all, the block
		// is done; some, the others wait for them in vain (an error).
		return "{\ngpukvetFirst, gpukvetLive := -1, false\nfor gpukvetI := range gpukvetL {\nif !gpukvetL[gpukvetI].gpukvetDone {\ngpukvetLive = true\n} else if gpukvetFirst < 0 {\ngpukvetFirst = gpukvetI\n}\n}\nif !gpukvetLive {\nreturn\n}\n" +
			g.directive(n.call.Pos()) + "gpukvetB.PhaseBarrier(gpukvetFirst)\n}\n"
	case *ifNode:
		return g.emitCond(n.c) + "if " + n.c.result + " {\n" + g.emitNodes(n.then) + "} else {\n" + g.emitNodes(n.els_) + "}\n"
	case *forNode:
		return g.emitCond(n.init) + "for " + n.init.result + " {\n" + g.emitNodes(n.body) + g.emitCond(n.post) + "}\n"
	}
	panic(fmt.Sprintf("gen: unknown node %T", n))
}

// emitNodes is the code of the nodes ns, one after another.
func (g *cpuGen) emitNodes(ns []cpuNode) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(g.emitNode(n))
	}
	return b.String()
}
