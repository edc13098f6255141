package hostgen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// cpuGen writes the block function of one kernel from a copy of its body.
type cpuGen struct {
	p       *packages.Package
	k       *kernel
	fd      *ast.FuncDecl
	tf      *token.File
	src     []byte
	file    string // the kernel's file name, for line directives
	qual    types.Qualifier
	barrier bool // split at barriers

	thread  types.Object         // the gpu.Thread parameter; nil if blank
	params  map[types.Object]int // the other parameters, by index
	bodies  map[*types.Func]*ast.BlockStmt
	edits   []srcEdit
	indexOf map[*ast.CallExpr]bool // rewritten t.XIdx() calls

	nodes   []cpuNode
	pieces  []*piece
	shared  []ast.Stmt              // x := gpu.Shared[T](t), once per block
	hoisted map[types.Object]string // variable → field of the locals struct
	locals  string                  // the fields of the locals struct
	nlabel  int
	spans   bool // the block function runs spans of blocks (spannable)
}

// srcEdit replaces [start, end) of the kernel's source (offsets) by text.
type srcEdit struct {
	start, end int
	text       string
	fn         func() string // computed at emission, when set
}

// piece is one loop over the block's threads: statements, or (cond) a
// statement and the condition that decides a branch or loop around a
// barrier.
type piece struct {
	id    int
	stmts []ast.Stmt
	pre   ast.Stmt
	cond  ast.Expr
	pos   token.Pos // of the if or for, for the check of uniformity
	label string    // on its X loop, for returns
	fast  string    // where its X loop runs a copy with fewer checks (fastCond)
	// trapFree: the copy under fast cannot trap, and records no thread.
	trapFree bool
	result   string // cond: the variable receiving the condition
	assign   bool   // cond: result exists already
}

// cpuNode is a node of the body split at its barriers: a *piece, a
// *barrierNode, an *ifNode or a *forNode.
type cpuNode interface{}

// barrierNode is a barrier, the end of the pieces before it.
type barrierNode struct{ call *ast.CallExpr }

// ifNode is an if statement around a barrier: its condition's piece and
// its branches.
type ifNode struct {
	c          *piece
	then, els_ []cpuNode
}

// forNode is a for loop around a barrier: the piece of its init statement
// and first test, its body, and the piece of its post statement and test.
type forNode struct {
	init *piece
	body []cpuNode
	post *piece
}

// newCPUGen prepares the block function of kernel k of package gp, split
// at its barriers if barrier is set; qual names packages in the
// generated file.
func newCPUGen(gp *Package, k *kernel, barrier bool, qual types.Qualifier) (*cpuGen, error) {
	p := gp.pkg
	var fd *ast.FuncDecl
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && p.TypesInfo.Defs[d.Name] == k.fn {
				fd = d
			}
		}
	}
	if fd == nil || fd.Body == nil {
		return nil, errors.New("its declaration was not found")
	}
	tf := p.Fset.File(fd.Pos())
	src, err := os.ReadFile(tf.Name())
	if err != nil || len(src) != tf.Size() {
		return nil, errors.New("its source file could not be read")
	}
	g := &cpuGen{p: p, k: k, fd: fd, tf: tf, src: src, file: filepath.Base(tf.Name()), qual: qual, barrier: barrier,
		params: map[types.Object]int{}, indexOf: map[*ast.CallExpr]bool{}, hoisted: map[types.Object]string{}}
	i := 0
	for _, f := range fd.Type.Params.List {
		names := f.Names
		if len(names) == 0 {
			names = []*ast.Ident{nil}
		}
		for _, n := range names {
			var obj types.Object
			if n != nil && n.Name != "_" {
				obj = p.TypesInfo.Defs[n]
			}
			if i == 0 {
				g.thread = obj
			} else if obj != nil {
				g.params[obj] = i - 1
			}
			i++
		}
	}
	g.bodies = funcBodies(p)
	return g, nil
}

// off is pos's offset in the kernel's file.
func (g *cpuGen) off(pos token.Pos) int { return g.tf.Offset(pos) }

// directive is the line directive giving pos.
func (g *cpuGen) directive(pos token.Pos) string {
	ps := g.tf.Position(pos)
	return fmt.Sprintf("/*line %s:%d:%d*/ ", g.file, ps.Line, ps.Column)
}

// text is the source of [pos, end) with the edits applied.
func (g *cpuGen) text(pos, end token.Pos) string {
	lo, hi := g.off(pos), g.off(end)
	var b strings.Builder
	cur := lo
	for _, e := range g.edits {
		if e.start < cur || e.end > hi {
			continue
		}
		if e.start == hi && e.start == e.end && hi != lo {
			continue // an insertion at the end belongs to the text after
		}
		b.Write(g.src[cur:e.start])
		if e.fn != nil {
			b.WriteString(e.fn())
		} else {
			b.WriteString(e.text)
		}
		cur = e.end
	}
	b.Write(g.src[cur:hi])
	return b.String()
}

// nodeText is n's source with the edits applied.
func (g *cpuGen) nodeText(n ast.Node) string { return g.text(n.Pos(), n.End()) }

// addEdit records the replacement of [start, end) by text.
func (g *cpuGen) addEdit(start, end token.Pos, text string) {
	g.edits = append(g.edits, srcEdit{start: g.off(start), end: g.off(end), text: text})
}

// block returns the block function's source, or why the kernel's body is
// beyond it.
func (g *cpuGen) block() (string, error) {
	body := g.fd.Body
	if err := g.common(); err != nil {
		return "", err
	}
	if !g.barrier {
		pc := &piece{id: 0, stmts: body.List}
		g.pieces = []*piece{pc}
		g.nodes = []cpuNode{pc}
		g.markReturns(pc)
		pc.fast, pc.trapFree = g.fastCond(pc)
		g.spans = g.spannable(pc)
		g.sortEdits()
		var b strings.Builder
		b.WriteString(blockHead)
		b.WriteString(g.emitPiece(pc))
		b.WriteString("}\n")
		return b.String(), nil
	}
	stmts := body.List
	// x := gpu.Shared[T](t) at the top of the body: once per block.
	for len(stmts) > 0 && g.isSharedDecl(stmts[0]) {
		g.shared = append(g.shared, stmts[0])
		stmts = stmts[1:]
	}
	nodes, err := g.buildList(stmts)
	if err != nil {
		return "", err
	}
	g.nodes = nodes
	for _, pc := range g.pieces {
		if err := g.checkBranches(pc); err != nil {
			return "", err
		}
		g.markReturns(pc)
	}
	if err := g.hoist(); err != nil {
		return "", err
	}
	g.sortEdits()
	var b strings.Builder
	b.WriteString(blockHead)
	// The per-thread locals, kept in the block from block to block.
	fmt.Fprintf(&b, "gpukvetN := gpukvetNX * gpukvetNY * gpukvetNZ\ngpukvetL, _ := gpukvetB.Locals.([]gpukvetLocals%s)\n", g.k.name)
	fmt.Fprintf(&b, "if cap(gpukvetL) < gpukvetN {\ngpukvetL = make([]gpukvetLocals%s, gpukvetN)\ngpukvetB.Locals = gpukvetL\n} else {\ngpukvetL = gpukvetL[:gpukvetN]\nclear(gpukvetL)\n}\n", g.k.name)
	if len(g.shared) > 0 {
		// x := gpu.Shared[T](t), once per block, as its thread (0,0,0).
		fmt.Fprintf(&b, "%s := gpukvetB.Thread(0, 0, 0)\n", g.thread.Name())
		for _, s := range g.shared {
			b.WriteString(g.nodeText(s) + "\n")
		}
	}
	// Parameters a thread assigns and that live across a barrier: every
	// thread's own copy.
	var init []string
	for obj, f := range g.hoisted {
		if i, ok := g.params[obj]; ok {
			init = append(init, fmt.Sprintf("gpukvetP.%s = gpukvetArg%d\n", f, i))
		}
	}
	sort.Strings(init)
	if len(init) > 0 {
		b.WriteString(threadLoops("", "lin", "gpukvetP := &gpukvetL[gpukvetI]\n"+strings.Join(init, ""), nil))
	}
	b.WriteString(g.emitNodes(g.nodes))
	b.WriteString("}\n")
	return b.String(), nil
}

// common checks what every copy needs and records the edits that do not
// depend on the split: package names, the thread's index calls, line
// directives.
func (g *cpuGen) common() error {
	info := g.p.TypesInfo
	var err error
	for _, f := range g.fd.Type.Params.List {
		for _, n := range f.Names {
			if n.Name == "gpu" {
				return errors.New("a parameter is named gpu")
			}
		}
	}
	ast.Inspect(g.fd.Body, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.DeferStmt:
			err = errors.New("it defers a call")
		case *ast.GoStmt:
			err = errors.New("it starts a goroutine")
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil && obj.Pkg() != nil && obj.Pkg() != g.p.Types && obj.Parent() == obj.Pkg().Scope() {
				if _, isPkg := obj.(*types.PkgName); !isPkg {
					err = fmt.Errorf("it names %s of a dot import", n.Name)
				}
			}
			if obj := info.Defs[n]; obj != nil && n.Name == "gpu" {
				err = errors.New("it declares a local named gpu")
			}
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pn, ok := info.Uses[id].(*types.PkgName); ok {
					g.addEdit(id.Pos(), id.End(), g.qual(pn.Imported()))
					return false
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && len(n.Args) == 0 {
				if id, ok := sel.X.(*ast.Ident); ok && g.thread != nil && info.Uses[id] == g.thread {
					if fn, ok := typeutil.Callee(info, n).(*types.Func); ok {
						var text string
						switch gpuapi.Func(fn) {
						case gpuapi.ThreadIdx:
							text = "(gpu.Dim3{X: gpukvetX, Y: gpukvetY, Z: gpukvetZ})"
						case gpuapi.GlobalIdx:
							text = "(gpu.Dim3{X: gpukvetGX, Y: gpukvetBY + gpukvetY, Z: gpukvetBZ + gpukvetZ})"
						case gpuapi.BlockIdx:
							text = "(gpu.Dim3{X: gpukvetBid[0], Y: gpukvetBid[1], Z: gpukvetBid[2]})"
						}
						if text != "" {
							g.addEdit(n.Pos(), n.End(), text)
							g.indexOf[n] = true
							return false
						}
					}
				}
			}
		case *ast.BlockStmt:
			g.lineDirectives(n.List)
		case *ast.CaseClause:
			g.lineDirectives(n.Body)
		case *ast.CommClause:
			g.lineDirectives(n.Body)
		}
		return true
	})
	return err
}

// lineDirectives puts a line directive before each statement of list, so
// that a trap in the copy names the kernel's line.
func (g *cpuGen) lineDirectives(list []ast.Stmt) {
	for _, s := range list {
		if _, ok := s.(*ast.LabeledStmt); ok {
			continue
		}
		g.addEdit(s.Pos(), s.Pos(), g.directive(s.Pos()))
	}
}

// sortEdits orders the edits by start; at one start, insertions first,
// then the longest replacement (which hides the ones inside it).
func (g *cpuGen) sortEdits() {
	sort.SliceStable(g.edits, func(i, j int) bool {
		a, b := g.edits[i], g.edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if ai, bi := a.start == a.end, b.start == b.end; ai != bi {
			return ai
		}
		return a.end-a.start > b.end-b.start
	})
}

// markReturns rewrites the returns of piece pc (outside function literals)
// as the end of the thread's iteration.
func (g *cpuGen) markReturns(pc *piece) {
	for _, s := range g.pieceNodes(pc) {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if pc.label == "" {
					pc.label = fmt.Sprintf("gpukvetThreads%d", g.nlabel)
					g.nlabel++
				}
				text := "continue " + pc.label
				if g.barrier {
					text = "{\ngpukvetP.gpukvetDone = true\ncontinue " + pc.label + "\n}"
				}
				g.addEdit(n.Pos(), n.End(), text)
			}
			return true
		})
	}
}

// pieceNodes are the syntax trees piece pc runs: its statements, or its
// statement and condition.
func (g *cpuGen) pieceNodes(pc *piece) []ast.Node {
	var ns []ast.Node
	for _, s := range pc.stmts {
		ns = append(ns, s)
	}
	if pc.pre != nil {
		ns = append(ns, pc.pre)
	}
	if pc.cond != nil {
		ns = append(ns, pc.cond)
	}
	return ns
}
