package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// The cpu backend's entry to each kernel: gen writes, per kernel K,
//
//	func gpukvetCPUK(gpukvetArgs []any) (thread, block func(gpu.Thread)) {
//		gpukvetArg0 := gpukvetArgs[0].(float32)
//		gpukvetArg1 := []float32(gpukvetArgs[1].([]float32))
//		thread = func(gpukvetT gpu.Thread) { K(gpukvetT, gpukvetArg0, gpukvetArg1) }
//		block = func(gpukvetRow gpu.Thread) { ... }
//		return thread, block
//	}
//
// (names with gen's prefix, so that none shadows a name of the package),
// and registers it with `CPU: &backend.CPUCode{Bind: gpukvetCPUK}`, so that
// the cpu backend calls the kernel without reflection. thread runs one
// thread; block runs a whole block as loops over its threads (the race
// detector's schedule uses thread, every other one block).
//
// block holds copies of the kernel's body (with /*line*/ directives, so
// that a trap names the kernel's file and line): the block's indices are
// read once per block (gpu.Thread.CPUBlock) and t.ThreadIdx(), t.BlockIdx()
// and t.GlobalIdx() become expressions of the loop counters, so that the
// compiler keeps them in registers; a `return` ends the thread's iteration.
//
// A kernel without barriers is one loop over the threads. A kernel with
// barriers is split at them (the work-item loops of MCUDA and POCL): the
// statements between two barriers become one loop over the block's
// threads, a barrier the end of such a loop; an if or a for whose body
// holds a barrier stays one statement around the loops of its body, its
// condition evaluated by every thread (PhaseUniform reports threads
// that disagree, which the divergence check rules out); a variable that
// lives across a barrier becomes a field of a per-thread struct (kept from
// block to block on a worker); a thread that returns is
// skipped by the loops after it (and a barrier after that fails, as on the
// other schedules); `x := gpu.Shared[T](t)` at the top of the body is
// evaluated once per block. The shapes it does not split, which keep the
// coroutines of the cpu backend (the generated file says why for each
// kernel): a barrier inside a function the kernel calls, inside a function
// literal, a switch, select or range loop, or not as a statement of its
// own; a loop around a barrier without a condition, or whose body breaks
// or continues it; goto; a labelled statement around a barrier that a
// branch names; a variable living across a barrier whose type cannot be
// named in the generated file (a type declared inside the kernel); a local
// constant or type used across a barrier; defer and go; a dot import.
// A kernel without barriers whose body cannot be copied (defer, go, a dot
// import) runs as a loop that calls it once per thread.

// writeCPUEntry writes kernel k's cpu entry.
func writeCPUEntry(w func(string, ...any), gp *genPackage, k *genKernel, qual types.Qualifier) {
	fn := "gpukvetCPU" + k.name
	var names []string
	var binds []string
	for i, v := range k.params {
		t := v.Type()
		name := fmt.Sprintf("gpukvetArg%d", i)
		names = append(names, name)
		if s, ok := t.Underlying().(*types.Slice); ok {
			// The cpu backend's memory holds a []E; a named slice type
			// converts from it.
			binds = append(binds, fmt.Sprintf("\t%s := %s(gpukvetArgs[%d].([]%s))\n", name, types.TypeString(t, qual), i, types.TypeString(s.Elem(), qual)))
		} else {
			binds = append(binds, fmt.Sprintf("\t%s := gpukvetArgs[%d].(%s)\n", name, i, types.TypeString(t, qual)))
		}
	}
	call := func(t string) string { return k.name + "(" + strings.Join(append([]string{t}, names...), ", ") + ")" }
	barrier := mayBarrier(gp, k)
	g, err := newCPUGen(gp, k, barrier, qual)
	var block, why string
	if err == nil {
		block, err = g.block()
	}
	if err != nil {
		why = err.Error()
		if !barrier {
			block = loopCalling(call("gpukvetRow.CPUAt(gpukvetX, gpukvetY, gpukvetZ)"))
		}
	}
	if g != nil && g.locals != "" && err == nil {
		w("\n// gpukvetLocals%s holds the locals of kernel %s that live across a\n// barrier, one per thread.\n", k.name, k.name)
		w("type gpukvetLocals%s struct {\n%s}\n", k.name, g.locals)
	}
	w("\n// %s binds kernel %s's arguments for the cpu\n", fn, k.name)
	w("// backend, which calls it without reflection.\n")
	if why != "" {
		if block == "" {
			w("// Its threads run as coroutines: %s.\n", why)
		} else {
			w("// Its block loop calls it per thread: %s.\n", why)
		}
	}
	w("func %s(gpukvetArgs []any) (thread, block func(gpu.Thread)) {\n", fn)
	for _, b := range binds {
		w("%s", b)
	}
	w("\tthread = func(gpukvetT gpu.Thread) { %s }\n", call("gpukvetT"))
	if block != "" {
		w("\tblock = %s\n", block)
	}
	w("\t%s return thread, block\n}\n", lineReset)
}

// loopCalling is a block function that runs stmt for each thread.
func loopCalling(stmt string) string {
	return blockHead +
		threadLoops("", "", stmt+"\n") + "}\n"
}

// blockHead starts a block function: the block's indices, read once, in
// variables of their own (which the compiler keeps in registers).
const blockHead = `func(gpukvetRow gpu.Thread) {
	gpukvetB := gpukvetRow.CPUBlock()
	gpukvetBid, gpukvetBase, gpukvetBdim := gpukvetB.Index()
	gpukvetBX, gpukvetBY, gpukvetBZ := gpukvetBase[0], gpukvetBase[1], gpukvetBase[2]
	gpukvetNX, gpukvetNY, gpukvetNZ := gpukvetBdim[0], gpukvetBdim[1], gpukvetBdim[2]
	_, _, _, _ = gpukvetBid, gpukvetBX, gpukvetBY, gpukvetBZ
`

// threadLoops is the loop over a block's threads (X fastest), with label
// (if not "") on the X loop and body inside; lin keeps gpukvetI, the
// thread's linear index.
func threadLoops(label, lin, body string) string {
	var b strings.Builder
	if lin != "" {
		b.WriteString("{\ngpukvetI := 0\n")
	}
	b.WriteString("for gpukvetZ := 0; gpukvetZ < gpukvetNZ; gpukvetZ++ {\nfor gpukvetY := 0; gpukvetY < gpukvetNY; gpukvetY++ {\ngpukvetB.Row(gpukvetY, gpukvetZ)\n")
	if label != "" {
		b.WriteString(label + ":\n")
	}
	if lin != "" {
		b.WriteString("for gpukvetX := 0; gpukvetX < gpukvetNX; gpukvetX, gpukvetI = gpukvetX+1, gpukvetI+1 {\n")
	} else {
		b.WriteString("for gpukvetX := 0; gpukvetX < gpukvetNX; gpukvetX++ {\n")
	}
	b.WriteString(body)
	b.WriteString("}\n}\n}\n")
	if lin != "" {
		b.WriteString("}\n")
	}
	return b.String()
}

// lineReset marks where the generated file's own positions resume after the
// copies of kernel bodies; resetLines turns it into a line directive.
const lineReset = "/*gpukvet:line*/"

var lineResetRE = regexp.MustCompile(regexp.QuoteMeta(lineReset))

// resetLines replaces each lineReset in the formatted file src, named
// name, by a directive giving its own line.
func resetLines(src []byte, name string) []byte {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if strings.Contains(l, lineReset) {
			lines[i] = lineResetRE.ReplaceAllString(l, fmt.Sprintf("/*line %s:%d:1*/", name, i+1))
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// cpuGen writes the block function of one kernel from a copy of its body.
type cpuGen struct {
	p       *packages.Package
	k       *genKernel
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
	paramIn map[types.Object][]int  // kernel parameter → pieces using it
	nlabel  int
}

type srcEdit struct {
	start, end int
	text       string
	fn         func() string // computed at emission, when set
}

// piece is one loop over the block's threads: statements, or (cond) a
// statement and the condition that decides a branch or loop around a
// barrier.
type piece struct {
	id     int
	stmts  []ast.Stmt
	isCond bool
	pre    ast.Stmt
	cond   ast.Expr
	pos    token.Pos // of the if or for, for the check of uniformity
	label  string    // on its X loop, for returns
	result string    // cond: the variable receiving the condition
	assign bool      // cond: result exists already
}

type cpuNode interface{}

type barrierNode struct{ call *ast.CallExpr }

type ifNode struct {
	c          *piece
	then, els_ []cpuNode
}

type forNode struct {
	init *piece
	body []cpuNode
	post *piece
}

func newCPUGen(gp *genPackage, k *genKernel, barrier bool, qual types.Qualifier) (*cpuGen, error) {
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
		params: map[types.Object]int{}, indexOf: map[*ast.CallExpr]bool{}, hoisted: map[types.Object]string{},
		paramIn: map[types.Object][]int{}}
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
	g.bodies = map[*types.Func]*ast.BlockStmt{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					g.bodies[fn] = fd.Body
				}
			}
		}
	}
	return g, nil
}

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

func (g *cpuGen) nodeText(n ast.Node) string { return g.text(n.Pos(), n.End()) }

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
		fmt.Fprintf(&b, "%s := gpukvetRow\n", g.thread.Name())
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
		b.WriteString(threadLoops("", "lin", "gpukvetP := &gpukvetL[gpukvetI]\n"+strings.Join(init, "")))
	}
	for _, n := range g.nodes {
		b.WriteString(g.emitNode(n))
	}
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
							text = "(gpu.Dim3{X: gpukvetBX + gpukvetX, Y: gpukvetBY + gpukvetY, Z: gpukvetBZ + gpukvetZ})"
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

func (g *cpuGen) newPiece(pc *piece) *piece {
	pc.id = len(g.pieces)
	g.pieces = append(g.pieces, pc)
	return pc
}

func (g *cpuGen) isBarrierCall(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(g.p.TypesInfo, call).(*types.Func)
	return ok && gpuapi.Func(fn).IsBarrier()
}

// hasBarrier reports whether n calls the barrier itself; a barrier it
// may reach otherwise (a function it calls, a function literal) is an
// error: the split happens in the kernel's own body.
func (g *cpuGen) hasBarrier(n ast.Node) (bool, error) {
	found := false
	var err error
	ast.Inspect(n, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if ok, _ := g.hasBarrier(n.Body); ok {
				err = errors.New("it calls a barrier inside a function literal")
			}
			return false
		case *ast.CallExpr:
			if tv, ok := g.p.TypesInfo.Types[n.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return true
			}
			callee, _ := typeutil.Callee(g.p.TypesInfo, n).(*types.Func)
			switch {
			case g.isBarrierCall(n):
				found = true
			case callee == nil:
				err = errors.New("it calls a function value, which may reach a barrier")
			case gpuapi.IsPackage(callee.Pkg()), noBarrierPackage(g.p, callee.Pkg()):
			case reachesBarrier(g.p, g.bodies, callee.Origin(), map[*types.Func]bool{}):
				err = fmt.Errorf("it reaches a barrier inside %s, a function it calls", callee.Name())
			}
		}
		return true
	})
	return found, err
}

// buildList splits a statement list at its barriers.
func (g *cpuGen) buildList(stmts []ast.Stmt) ([]cpuNode, error) {
	var nodes []cpuNode
	var cur []ast.Stmt
	flush := func() {
		if len(cur) > 0 {
			nodes = append(nodes, g.newPiece(&piece{stmts: cur}))
			cur = nil
		}
	}
	for _, s := range stmts {
		has, err := g.hasBarrier(s)
		if err != nil {
			return nil, err
		}
		if !has {
			cur = append(cur, s)
			continue
		}
		flush()
		sub, err := g.buildStmt(s)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, sub...)
	}
	flush()
	return nodes, nil
}

// position is n's file:line, with the file's base name (the message goes
// into the generated file, which must not depend on the machine).
func (g *cpuGen) position(n ast.Node) string {
	return fmt.Sprintf("%s:%d", g.file, g.tf.Line(n.Pos()))
}

// buildStmt splits a statement that holds a barrier.
func (g *cpuGen) buildStmt(s ast.Stmt) ([]cpuNode, error) {
	switch s := s.(type) {
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok && g.isBarrierCall(call) {
			return []cpuNode{&barrierNode{call}}, nil
		}
	case *ast.BlockStmt:
		return g.buildList(s.List)
	case *ast.IfStmt:
		n := &ifNode{c: g.newPiece(&piece{isCond: true, pre: s.Init, cond: s.Cond, pos: s.Pos()})}
		n.c.result = fmt.Sprintf("gpukvetC%d", n.c.id)
		var err error
		if n.then, err = g.buildList(s.Body.List); err != nil {
			return nil, err
		}
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			n.els_, err = g.buildList(e.List)
		case *ast.IfStmt:
			n.els_, err = g.buildList([]ast.Stmt{e})
		}
		if err != nil {
			return nil, err
		}
		return []cpuNode{n}, nil
	case *ast.ForStmt:
		if s.Cond == nil {
			return nil, fmt.Errorf("the loop at %s around a barrier has no condition", g.position(s))
		}
		n := &forNode{init: g.newPiece(&piece{isCond: true, pre: s.Init, cond: s.Cond, pos: s.Pos()})}
		n.init.result = fmt.Sprintf("gpukvetC%d", n.init.id)
		var err error
		if n.body, err = g.buildList(s.Body.List); err != nil {
			return nil, err
		}
		n.post = g.newPiece(&piece{isCond: true, pre: s.Post, cond: s.Cond, pos: s.Pos(), result: n.init.result, assign: true})
		return []cpuNode{n}, nil
	case *ast.LabeledStmt:
		used := false
		ast.Inspect(g.fd.Body, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Label != nil && g.p.TypesInfo.Uses[b.Label] == g.p.TypesInfo.Defs[s.Label] {
				used = true
			}
			return !used
		})
		if !used {
			return g.buildStmt(s.Stmt)
		}
		return nil, fmt.Errorf("a branch names the label %s around a barrier", s.Label.Name)
	}
	return nil, fmt.Errorf("it calls a barrier inside a %s at %s", stmtKind(s), g.position(s))
}

func stmtKind(s ast.Stmt) string {
	switch s.(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		return "switch"
	case *ast.SelectStmt:
		return "select"
	case *ast.RangeStmt:
		return "range loop"
	}
	return "statement that is not a call of its own"
}

// checkBranches refuses a break, continue or goto of piece pc whose
// target lies outside it (the loop around a barrier, say).
func (g *cpuGen) checkBranches(pc *piece) error {
	var err error
	for _, root := range g.pieceNodes(pc) {
		var stack []ast.Node
		ast.Inspect(root, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			stack = append(stack, n)
			b, ok := n.(*ast.BranchStmt)
			if !ok {
				return true
			}
			switch {
			case b.Tok == token.GOTO:
				err = fmt.Errorf("it uses goto at %s", g.position(b))
			case b.Label != nil:
				found := false
				for _, s := range stack {
					if l, ok := s.(*ast.LabeledStmt); ok && l.Label.Name == b.Label.Name {
						found = true
					}
				}
				if !found {
					err = fmt.Errorf("the %s at %s leaves a stretch between barriers", b.Tok, g.position(b))
				}
			case b.Tok == token.BREAK || b.Tok == token.CONTINUE:
				found := false
				for _, s := range stack {
					switch s.(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						found = true
					case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
						found = found || b.Tok == token.BREAK
					}
				}
				if !found {
					err = fmt.Errorf("the %s at %s leaves a stretch between barriers", b.Tok, g.position(b))
				}
			}
			return true
		})
	}
	return err
}

// isSharedDecl reports whether s is `x := gpu.Shared[T](t)` with x never
// assigned again and T naming nothing local.
func (g *cpuGen) isSharedDecl(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || g.thread == nil {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn, ok := typeutil.Callee(g.p.TypesInfo, call).(*types.Func)
	if !ok || gpuapi.Func(fn) != gpuapi.Shared {
		return false
	}
	if id, ok := call.Args[0].(*ast.Ident); !ok || g.p.TypesInfo.Uses[id] != g.thread {
		return false
	}
	local := false
	ast.Inspect(call.Fun, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := g.p.TypesInfo.Uses[id]; obj != nil && obj.Pkg() == g.p.Types && obj.Parent() != g.p.Types.Scope() {
				if _, isPkg := obj.(*types.PkgName); !isPkg {
					local = true
				}
			}
		}
		return true
	})
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || local || id.Name == "_" {
		return false
	}
	obj := g.p.TypesInfo.Defs[id]
	return obj != nil && !g.assigned(obj)
}

// assigned reports whether the body assigns obj (after its declaration),
// or takes its address.
func (g *cpuGen) assigned(obj types.Object) bool {
	info := g.p.TypesInfo
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == obj
	}
	found := false
	ast.Inspect(g.fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.RangeStmt:
			found = found || (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value))
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		}
		return !found
	})
	return found
}

// hoist finds the variables that live across a barrier (used in more than
// one piece) and turns them into fields of the per-thread locals.
func (g *cpuGen) hoist() error {
	info := g.p.TypesInfo
	body := g.fd.Body
	inBody := func(obj types.Object) bool { return obj.Pos() >= body.Pos() && obj.Pos() < body.End() }
	sharedVar := map[types.Object]bool{}
	for _, s := range g.shared {
		sharedVar[info.Defs[s.(*ast.AssignStmt).Lhs[0].(*ast.Ident)]] = true
	}
	uses := map[types.Object]map[int]bool{}
	var order []types.Object
	var err error
	for _, pc := range g.pieces {
		for _, root := range g.pieceNodes(pc) {
			ast.Inspect(root, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok || id.Name == "_" {
					return true
				}
				obj := info.Defs[id]
				if obj == nil {
					obj = info.Uses[id]
				}
				if obj == nil || sharedVar[obj] || obj == g.thread {
					return true
				}
				if _, ok := g.params[obj]; ok {
					g.paramIn[obj] = appendOnce(g.paramIn[obj], pc.id)
				} else if !inBody(obj) {
					return true
				}
				if uses[obj] == nil {
					uses[obj] = map[int]bool{}
					order = append(order, obj)
				}
				uses[obj][pc.id] = true
				return true
			})
		}
	}
	hoist := map[types.Object]bool{}
	for _, obj := range order {
		if len(uses[obj]) < 2 {
			continue
		}
		switch obj := obj.(type) {
		case *types.Var:
			if obj.IsField() {
				continue
			}
			if _, isParam := g.params[obj]; isParam && !g.assigned(obj) {
				continue // each piece reads the argument
			}
			hoist[obj] = true
		case *types.Const, *types.TypeName:
			if obj.Parent() != g.p.Types.Scope() && inBody(obj) {
				err = fmt.Errorf("the local %s %s is used across a barrier", strings.ToLower(strings.TrimPrefix(fmt.Sprintf("%T", obj), "*types.")), obj.Name())
			}
		case *types.Label:
		}
	}
	if err != nil {
		return err
	}
	// A declaration that declares one hoisted variable becomes an
	// assignment, so every variable it declares is hoisted.
	for changed := true; changed; {
		changed = false
		spread := func(ids []ast.Expr) {
			any := false
			for _, e := range ids {
				if id, ok := e.(*ast.Ident); ok && hoist[objOf(info, id)] {
					any = true
				}
			}
			if !any {
				return
			}
			for _, e := range ids {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					if obj := info.Defs[id]; obj != nil && !hoist[obj] {
						hoist[obj] = true
						changed = true
					}
				}
			}
		}
		for _, pc := range g.pieces {
			for _, root := range g.pieceNodes(pc) {
				ast.Inspect(root, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.AssignStmt:
						if n.Tok == token.DEFINE {
							spread(n.Lhs)
						}
					case *ast.RangeStmt:
						if n.Tok == token.DEFINE {
							spread([]ast.Expr{n.Key, n.Value})
						}
					case *ast.ValueSpec:
						var ids []ast.Expr
						for _, id := range n.Names {
							ids = append(ids, id)
						}
						spread(ids)
					case *ast.TypeSwitchStmt:
						// its symbol has no object of its own: refused below
					}
					return true
				})
			}
		}
	}
	var fields strings.Builder
	fields.WriteString("gpukvetDone bool\n")
	n := 0
	for _, obj := range order {
		if !hoist[obj] {
			continue
		}
		if !nameable(obj.Type(), g.p.Types) {
			return fmt.Errorf("%s lives across a barrier and its type %s cannot be named outside the kernel", obj.Name(), obj.Type())
		}
		f := fmt.Sprintf("v%d_%s", n, obj.Name())
		n++
		g.hoisted[obj] = f
		fmt.Fprintf(&fields, "%s %s\n", f, types.TypeString(obj.Type(), g.qual))
	}
	g.locals = fields.String()
	// The edits: uses become fields, declarations assignments.
	for _, pc := range g.pieces {
		for _, root := range g.pieceNodes(pc) {
			ast.Inspect(root, func(n ast.Node) bool {
				if err != nil {
					return false
				}
				switch n := n.(type) {
				case *ast.Ident:
					if f, ok := g.hoisted[objOf(info, n)]; ok {
						g.addEdit(n.Pos(), n.End(), "gpukvetP."+f)
					}
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE && g.anyHoisted(n.Lhs) {
						g.addEdit(n.TokPos, n.TokPos+2, "=")
					}
				case *ast.RangeStmt:
					if n.Tok == token.DEFINE && g.anyHoisted([]ast.Expr{n.Key, n.Value}) {
						g.addEdit(n.TokPos, n.TokPos+2, "=")
					}
				case *ast.TypeSwitchStmt:
					for _, c := range n.Body.List {
						if obj := info.Implicits[c]; obj != nil && len(uses[obj]) > 1 {
							err = errors.New("a type switch's variable lives across a barrier")
						}
					}
				case *ast.DeclStmt:
					gd, ok := n.Decl.(*ast.GenDecl)
					if !ok || gd.Tok != token.VAR {
						return true
					}
					hoisted := false
					for _, sp := range gd.Specs {
						for _, id := range sp.(*ast.ValueSpec).Names {
							hoisted = hoisted || g.hoisted[info.Defs[id]] != ""
						}
					}
					if hoisted {
						g.edits = append(g.edits, srcEdit{start: g.off(n.Pos()), end: g.off(n.End()), fn: func() string { return g.varDecl(gd) }})
					}
				}
				return true
			})
		}
	}
	return err
}

// varDecl is a var declaration with hoisted variables as assignments.
func (g *cpuGen) varDecl(gd *ast.GenDecl) string {
	info := g.p.TypesInfo
	var parts []string
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		hoisted := false
		for _, id := range vs.Names {
			hoisted = hoisted || g.hoisted[info.Defs[id]] != ""
		}
		if !hoisted {
			parts = append(parts, "var "+g.nodeText(vs))
			continue
		}
		var lhs, rhs []string
		for i, id := range vs.Names {
			if f := g.hoisted[info.Defs[id]]; f != "" {
				lhs = append(lhs, "gpukvetP."+f)
			} else {
				lhs = append(lhs, "_")
			}
			if len(vs.Values) == 0 {
				rhs = append(rhs, "*new("+g.nodeText(vs.Type)+")")
			} else if len(vs.Values) == len(vs.Names) {
				v := g.nodeText(vs.Values[i])
				if vs.Type != nil {
					v = "(" + g.nodeText(vs.Type) + ")(" + v + ")"
				}
				rhs = append(rhs, v)
			}
		}
		if len(vs.Values) == 1 && len(vs.Names) > 1 {
			rhs = []string{g.nodeText(vs.Values[0])}
		}
		parts = append(parts, strings.Join(lhs, ", ")+" = "+strings.Join(rhs, ", "))
	}
	return strings.Join(parts, "; ")
}

func (g *cpuGen) anyHoisted(es []ast.Expr) bool {
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok && g.hoisted[objOf(g.p.TypesInfo, id)] != "" {
			return true
		}
	}
	return false
}

func objOf(info *types.Info, id *ast.Ident) types.Object {
	if id == nil {
		return nil
	}
	if obj := info.Defs[id]; obj != nil {
		return obj
	}
	return info.Uses[id]
}

func appendOnce(s []int, v int) []int {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// nameable reports whether t can be written in a file of package pkg
// other than the kernel's: no type declared inside a function, no
// unexported type of another package.
func nameable(t types.Type, pkg *types.Package) bool {
	ok := true
	var walk func(t types.Type)
	seen := map[types.Type]bool{}
	walk = func(t types.Type) {
		if !ok || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() != nil && (obj.Parent() != obj.Pkg().Scope() || (obj.Pkg() != pkg && !obj.Exported())) {
				ok = false
			}
			for i := range t.TypeArgs().Len() {
				walk(t.TypeArgs().At(i))
			}
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			for i := range t.Params().Len() {
				walk(t.Params().At(i).Type())
			}
			for i := range t.Results().Len() {
				walk(t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := range t.NumFields() {
				f := t.Field(i)
				if !f.Exported() && f.Pkg() != pkg {
					ok = false
				}
				walk(f.Type())
			}
		case *types.Interface:
			ok = ok && t.NumMethods() == 0
		}
	}
	walk(t)
	return ok
}

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

// prologue is the start of a piece's per-thread iteration.
func (g *cpuGen) prologue(pc *piece) string {
	var b strings.Builder
	if g.barrier {
		b.WriteString("gpukvetP := &gpukvetL[gpukvetI]\nif gpukvetP.gpukvetDone {\ncontinue\n}\n")
	}
	params, thread := g.uses(pc)
	at := "gpukvetRow.CPUAt(gpukvetX, gpukvetY, gpukvetZ)"
	if thread {
		fmt.Fprintf(&b, "%s := %s\n", g.thread.Name(), at)
	} else {
		b.WriteString(at + "\n")
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

func (g *cpuGen) emitPiece(pc *piece) string {
	var b strings.Builder
	b.WriteString(g.prologue(pc))
	for _, s := range pc.stmts {
		b.WriteString(g.nodeText(s) + "\n")
	}
	lin := ""
	if g.barrier {
		lin = "lin"
	}
	return threadLoops(pc.label, lin, b.String())
}

// emitCond is the loop that evaluates a condition around a barrier for
// every thread, and the check that they agree.
func (g *cpuGen) emitCond(pc *piece) string {
	yes, no := fmt.Sprintf("gpukvetYes%d", pc.id), fmt.Sprintf("gpukvetNo%d", pc.id)
	var b strings.Builder
	b.WriteString(g.prologue(pc))
	if pc.pre != nil {
		b.WriteString(g.directive(pc.pre.Pos()) + g.nodeText(pc.pre) + "\n")
	}
	fmt.Fprintf(&b, "if %s(%s) {\nif %s < 0 {\n%s = gpukvetI\n}\n} else if %s < 0 {\n%s = gpukvetI\n}\n",
		g.directive(pc.cond.Pos()), g.nodeText(pc.cond), yes, yes, no, no)
	out := fmt.Sprintf("%s, %s := -1, -1\n", yes, no) + threadLoops("", "lin", b.String())
	op := ":="
	if pc.assign {
		op = "="
	}
	return out + fmt.Sprintf("%s%s %s gpukvetB.PhaseUniform(%s, %s)\n", g.directive(pc.pos), pc.result, op, yes, no)
}

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
		var b strings.Builder
		b.WriteString(g.emitCond(n.c))
		fmt.Fprintf(&b, "if %s {\n", n.c.result)
		for _, m := range n.then {
			b.WriteString(g.emitNode(m))
		}
		b.WriteString("} else {\n")
		for _, m := range n.els_ {
			b.WriteString(g.emitNode(m))
		}
		b.WriteString("}\n")
		return b.String()
	case *forNode:
		var b strings.Builder
		b.WriteString(g.emitCond(n.init))
		fmt.Fprintf(&b, "for %s {\n", n.init.result)
		for _, m := range n.body {
			b.WriteString(g.emitNode(m))
		}
		b.WriteString(g.emitCond(n.post))
		b.WriteString("}\n")
		return b.String()
	}
	panic(fmt.Sprintf("gen: unknown node %T", n))
}

// mayBarrier reports whether kernel k may call gpu.Thread.Barrier: itself,
// or through a function whose body the package holds. A call the walk
// cannot follow (a function of another package other than gpu's, a
// function value) counts as a barrier, which only costs speed: the cpu
// backend then runs the kernel's threads as coroutines.
func mayBarrier(gp *genPackage, k *genKernel) bool {
	bodies := map[*types.Func]*ast.BlockStmt{}
	for _, f := range gp.pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := gp.pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					bodies[fn] = fd.Body
				}
			}
		}
	}
	return reachesBarrier(gp.pkg, bodies, k.fn, map[*types.Func]bool{})
}

func reachesBarrier(p *packages.Package, bodies map[*types.Func]*ast.BlockStmt, fn *types.Func, seen map[*types.Func]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	body := bodies[fn]
	if body == nil {
		return true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if tv, ok := p.TypesInfo.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true // a conversion or a builtin
		}
		callee, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
		switch {
		case callee == nil:
			found = true // a function value: cannot follow
		case gpuapi.IsPackage(callee.Pkg()):
			found = gpuapi.Func(callee).IsBarrier()
		case noBarrierPackage(p, callee.Pkg()):
		case callee.Pkg() != p.Types:
			found = true
		default:
			found = reachesBarrier(p, bodies, callee.Origin(), seen)
		}
		return true
	})
	return found
}

// noBarrierPackage reports whether no function of pkg, imported by p, can
// reach a barrier: gpu/math32 and the like, and the standard library
// (loaded without a module), which cannot import package gpu.
func noBarrierPackage(p *packages.Package, pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if strings.HasPrefix(pkg.Path(), gpuapi.Path+"/") {
		return true
	}
	imp := p.Imports[pkg.Path()]
	return imp != nil && imp.Module == nil && !strings.Contains(strings.Split(pkg.Path(), "/")[0], ".")
}
