package kerngen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A Stmt is one statement of a random program: a simple statement (Head
// alone) or a block: Head opens it ("if c {"), Body and Else are its
// arms, and the block closes with "}". The shrinker removes statements
// and replaces blocks by their arms.
type Stmt struct {
	Head       string
	Body, Else []*Stmt
	Block      bool
	// Case marks a switch's case clause, which has no closing brace.
	Case bool
	// Whole marks a block the shrinker removes whole or keeps whole: a
	// shared-memory stage without its write reads memory whose contents
	// are undefined, which is no bug of a backend.
	Whole bool
}

// A Program is one random kernel: its variables (one per type it uses,
// read from the thread's operands), its statements, the device functions
// they call, and its results: every variable's final value and a block's
// atomic accumulator.
type Program struct {
	Name    string
	Vars    []Type // variable vK has type Vars[K]
	Devices []string
	Stmts   []*Stmt
}

// Block and Grid are the launch shape of every random program: two
// blocks of 64 threads, one thread per input row.
const (
	Block = 64
	Grid  = 2
)

// rg writes one random program.
type rg struct {
	r     *rand.Rand
	p     *Program
	loops int // loops written, for fresh counter names
	dev   map[string]string
}

// Random returns a package of n random kernels from seed: expressions
// over every numeric type, ifs, switches, counted loops with break and
// continue, device function calls, shared memory between barriers,
// atomics and the odd trap. Barriers stand only at a kernel's top level,
// shared memory is written at the thread's own index and read between
// barriers, and atomics add to a block's own slot, so the programs are
// race-free and divergence-free by construction (the tests still run the
// checks on them: a program they flag is a finding). Their results are
// what Go defines: a float is never converted to an integer, and a NaN's
// bits handed through shared memory are always the same.
func Random(seed uint64, n int) (progs []*Program) {
	r := rand.New(rand.NewPCG(seed, 0x6b65726e67656e))
	for j := range n {
		progs = append(progs, randomProgram(r, fmt.Sprintf("R%03d", j)))
	}
	return progs
}

func randomProgram(r *rand.Rand, name string) *Program {
	p := &Program{Name: name}
	g := &rg{r: r, p: p, dev: map[string]string{}}
	p.Vars = append(p.Vars, Numeric[0])
	for range 2 + r.IntN(4) {
		p.Vars = append(p.Vars, Numeric[r.IntN(len(Numeric))])
	}
	for range r.IntN(3) {
		g.device()
	}
	for range 3 + r.IntN(10) {
		p.Stmts = append(p.Stmts, g.stmtIn(0, true, nil, false))
	}
	return p
}

// varsOf are the variables of type t in scope.
func (g *rg) varsOf(t Type, scope []string) []string {
	var vs []string
	for k, vt := range g.p.Vars {
		if vt == t {
			vs = append(vs, fmt.Sprintf("v%d", k))
		}
	}
	for _, s := range scope {
		if name, typ, _ := strings.Cut(s, " "); typ == t.Name {
			vs = append(vs, name)
		}
	}
	return vs
}

// device adds a device function of a random type to the program.
func (g *rg) device() {
	t := Numeric[g.r.IntN(len(Numeric))]
	name := fmt.Sprintf("%s_d%d", g.p.Name, len(g.p.Devices))
	body := g.expr(t, 2, []string{"x " + t.Name, "y " + t.Name}, true)
	g.p.Devices = append(g.p.Devices, fmt.Sprintf("//gpu:device\nfunc %s(x, y %s) %s {\n\treturn %s\n}\n", name, t.Name, t.Name, body))
	g.dev[t.Name] = name
}

// expr is a random expression of type t; only names scope (parameters, as
// "name type") when params, else the program's variables too. It is never
// a constant expression, which Go would evaluate (and refuse when it
// overflows) at compile time.
func (g *rg) expr(t Type, depth int, scope []string, params bool) string {
	e, constant := g.expr1(t, depth, scope, params)
	if constant {
		return g.leaf(t, scope, params)
	}
	return e
}

// leaf is a variable of type t (or a conversion to t of another).
func (g *rg) leaf(t Type, scope []string, params bool) string {
	vs := g.names(t, scope, params)
	if len(vs) > 0 && (params || g.r.IntN(3) > 0) {
		return vs[g.r.IntN(len(vs))]
	}
	return g.conversion(t, scope)
}

func (g *rg) names(t Type, scope []string, params bool) []string {
	if !params {
		return g.varsOf(t, scope)
	}
	var vs []string
	for _, s := range scope {
		if name, typ, _ := strings.Cut(s, " "); typ == t.Name {
			vs = append(vs, name)
		}
	}
	return vs
}

// expr1 is expr; constant says the expression is a constant one, which
// only expr1 itself may return, as one operand of an operation.
func (g *rg) expr1(t Type, depth int, scope []string, params bool) (e string, constant bool) {
	if depth <= 0 || g.r.IntN(4) == 0 {
		if g.r.IntN(3) == 0 {
			c := t.constants()
			return t.Name + "(" + c[g.r.IntN(len(c))] + ")", true
		}
		return g.leaf(t, scope, params), false
	}
	sub := func() string { return g.expr(t, depth-1, scope, params) }
	// two are two operands, at most one of them constant.
	two := func() (string, string) {
		x, cx := g.expr1(t, depth-1, scope, params)
		y, cy := g.expr1(t, depth-1, scope, params)
		if cx && cy {
			x = g.leaf(t, scope, params)
		}
		return x, y
	}
	k := g.r.IntN(10)
	switch {
	case k == 0:
		if t.Int() {
			return "^(" + sub() + ")", false
		}
		return "-(" + sub() + ")", false
	case k == 1:
		x, y := two()
		return g.pick("min", "max") + "(" + x + ", " + y + ")", false
	case k == 2 && g.dev[t.Name] != "" && !params:
		x, y := two()
		return g.dev[t.Name] + "(" + x + ", " + y + ")", false
	case k == 3 && t.Int():
		// The count is never constant: uint8 of a constant may overflow.
		return "(" + sub() + " " + g.pick("<<", ">>") + " uint8(" + g.leaf(t, scope, params) + "))", false
	case k == 4 && t.Int():
		x, y := two()
		return "(" + x + " " + g.pick("/", "%") + " (" + y + " | 1))", false
	case k == 5 && t.Name == "float64":
		return "math." + g.pick("Abs", "Floor", "Sqrt", "Trunc") + "(" + sub() + ")", false
	case k == 5 && t.Int():
		return t.Name + "(bits.OnesCount64(uint64(" + sub() + ")))", false
	case t.Float:
		// The conversion rounds each operation on its own, so that no
		// backend may fuse a product into an addition (DIALECT.md).
		ops := []string{"+", "-", "*"}
		if t.Bits == 64 {
			ops = append(ops, "/")
		}
		x, y := two()
		return t.Name + "(" + x + " " + g.pick(ops...) + " " + y + ")", false
	}
	x, y := two()
	return "(" + x + " " + g.pick("+", "-", "*", "&", "|", "^", "&^") + " " + y + ")", false
}

// conversion converts a variable of another type to t; a float is never
// converted to an integer (Go leaves the result of one out of range to
// the implementation).
func (g *rg) conversion(t Type, scope []string) string {
	var from []Type
	for _, vt := range g.p.Vars {
		if !(vt.Float && t.Int()) {
			from = append(from, vt)
		}
	}
	u := from[g.r.IntN(len(from))]
	vs := g.varsOf(u, scope)
	return t.Name + "(" + vs[g.r.IntN(len(vs))] + ")"
}

func (g *rg) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// cond is a random condition, which may differ between threads.
func (g *rg) cond(scope []string) string {
	t := g.p.Vars[g.r.IntN(len(g.p.Vars))]
	c := g.expr(t, 1, scope, false) + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " " + g.expr(t, 1, scope, false)
	if g.r.IntN(4) == 0 {
		c = "!(" + c + ") " + g.pick("&&", "||") + " " + g.cond(scope)
	}
	return c
}

// variable picks one of the program's variables.
func (g *rg) variable() (string, Type) {
	k := g.r.IntN(len(g.p.Vars))
	return fmt.Sprintf("v%d", k), g.p.Vars[k]
}

// stmtIn is a random statement at nesting depth, with the loop counters
// of scope; top says it stands at the kernel's top level, where barriers
// are allowed, inLoop that break and continue are.
func (g *rg) stmtIn(depth int, top bool, scope []string, inLoop bool) *Stmt {
	k := g.r.IntN(14)
	if depth >= 3 && k >= 7 {
		k = g.r.IntN(7)
	}
	v, t := g.variable()
	switch k {
	case 0, 1, 2:
		return &Stmt{Head: v + " = " + g.expr(t, 2+g.r.IntN(2), scope, false)}
	case 3:
		ops := []string{"+=", "-=", "*="}
		if t.Int() {
			ops = append(ops, "&=", "|=", "^=")
		}
		return &Stmt{Head: v + " " + g.pick(ops...) + " " + g.expr(t, 2, scope, false)}
	case 4:
		return &Stmt{Head: "gpu.AtomicAdd(&out[(i-tid)*nout+nvars], uint64(" + g.expr(Numeric[0], 2, scope, false) + "))"}
	case 5:
		if top {
			return g.sharedStage(scope)
		}
		return &Stmt{Head: v + "++"}
	case 6:
		if inLoop && g.r.IntN(2) == 0 {
			return &Stmt{Block: true, Head: "if " + g.cond(scope) + " {", Body: []*Stmt{{Head: g.pick("break", "continue")}}}
		}
		if g.r.IntN(6) == 0 {
			return g.trap(scope)
		}
		return &Stmt{Head: v + "--"}
	case 7, 8, 9:
		s := &Stmt{Block: true, Head: "if " + g.cond(scope) + " {", Body: g.stmts(depth+1, scope, inLoop)}
		if g.r.IntN(2) == 0 {
			s.Else = g.stmts(depth+1, scope, inLoop)
		}
		return s
	case 10, 11:
		g.loops++
		kv := fmt.Sprintf("k%d", g.loops)
		return &Stmt{Block: true, Head: fmt.Sprintf("for %s := 0; %s < %d; %s++ {", kv, kv, 1+g.r.IntN(4), kv),
			Body: g.stmts(depth+1, append(scope, kv+" int"), true)}
	default:
		s := &Stmt{Block: true, Head: "switch " + g.expr(Numeric[0], 1, scope, false) + " & 3 {"}
		for _, c := range []string{"case 0:", "case 1, 2:", "default:"} {
			s.Body = append(s.Body, &Stmt{Case: true, Head: c, Body: g.stmts(depth+1, scope, inLoop)})
		}
		return s
	}
}

func (g *rg) stmts(depth int, scope []string, inLoop bool) []*Stmt {
	var ss []*Stmt
	for range 1 + g.r.IntN(3) {
		ss = append(ss, g.stmtIn(depth, false, scope, inLoop))
	}
	return ss
}

// sharedStage hands a value to the thread k places on in the block
// through shared memory, between barriers.
func (g *rg) sharedStage(scope []string) *Stmt {
	from, ft := g.variable()
	to, tt := g.variable()
	body := []*Stmt{{Head: "s[tid] = " + ft.ToBits(from)}}
	if ft.Float {
		body = append(body, oneNaN(from, ft))
	}
	return &Stmt{Block: true, Whole: true, Head: "{", Body: append(body,
		&Stmt{Head: "t.Barrier()"},
		&Stmt{Head: to + " = " + tt.FromBits(fmt.Sprintf("s[(tid+%d)%%%d]", 1+g.r.IntN(Block-1), Block))},
		&Stmt{Head: "t.Barrier()"},
	)}
}

// oneNaN stores one NaN's bits in place of float x's when x is a NaN: Go
// leaves the sign and payload of a NaN an operation makes to the hardware
// (Inf-Inf is 0xffc00000 on amd64, 0x7fc00000 on lavapipe and on arm64),
// and the shared stage may hand the bits to an integer variable, where
// they are a value.
func oneNaN(x string, t Type) *Stmt {
	return &Stmt{Block: true, Head: "if " + x + " != " + x + " {",
		Body: []*Stmt{{Head: fmt.Sprintf("s[tid] = %#x", t.qnanBits())}}}
}

// trap writes a statement that traps on some inputs: a read past the end
// of an operand, or a division by zero, under a rare condition.
func (g *rg) trap(scope []string) *Stmt {
	v, t := g.variable()
	if g.r.IntN(2) == 0 && t.Int() {
		return &Stmt{Head: fmt.Sprintf("%s = %s / (%s & 7)", v, v, g.expr(t, 1, scope, false))}
	}
	return &Stmt{Block: true, Head: "if " + g.cond(scope) + " {",
		Body: []*Stmt{{Head: "v0 += int(a[int(uint8(" + g.expr(Numeric[0], 1, scope, false) + "))])"}}}
}

// Source returns the kernel source of p.
func (p *Program) Source() string {
	var b strings.Builder
	for _, d := range p.Devices {
		b.WriteString("\n" + d)
	}
	fmt.Fprintf(&b, "\n//gpu:kernel block=%d\nfunc %s(t gpu.Thread, a, b, c, out []uint64) {\n", Block, p.Name)
	fmt.Fprintf(&b, "\tconst nvars, %s = %d, %d\n", outsConst, len(p.Vars), len(p.Vars)+1)
	b.WriteString("\ti := t.GlobalIdx().X\n\ttid := t.ThreadIdx().X\n")
	fmt.Fprintf(&b, "\ts := gpu.Shared[[%d]uint64](t)\n", Block)
	srcs := []string{"a[i]", "b[i]", "c[i]", "(a[i] ^ b[i])", "(b[i] + c[i])", "(c[i] >> 7)"}
	for k, t := range p.Vars {
		fmt.Fprintf(&b, "\tv%d := %s\n", k, t.FromBits(srcs[k%len(srcs)]))
	}
	writeStmts(&b, p.Stmts, 1)
	for k, t := range p.Vars {
		fmt.Fprintf(&b, "\tout[i*%s+%d] = %s\n", outsConst, k, t.ToBits(fmt.Sprintf("v%d", k)))
	}
	b.WriteString("\t_, _ = s, tid\n}\n")
	return b.String()
}

func writeStmts(b *strings.Builder, ss []*Stmt, depth int) {
	ind := strings.Repeat("\t", depth)
	for _, s := range ss {
		b.WriteString(ind + s.Head + "\n")
		if !s.Block && !s.Case {
			continue
		}
		writeStmts(b, s.Body, depth+1)
		if len(s.Else) > 0 {
			b.WriteString(ind + "} else {\n")
			writeStmts(b, s.Else, depth+1)
		}
		if s.Block {
			b.WriteString(ind + "}\n")
		}
	}
}

// Kernel describes p to the tests, without its function.
func (p *Program) Kernel() Kernel {
	k := Kernel{Name: p.Name, In: []string{"uint64", "uint64", "uint64"}, Block: Block, Grid: Grid}
	for j, t := range p.Vars {
		k.Out = append(k.Out, t.Name)
		k.Exprs = append(k.Exprs, fmt.Sprintf("v%d", j))
	}
	k.Out = append(k.Out, "uint64")
	k.Exprs = append(k.Exprs, "the block's atomic sum")
	return k
}

// RandomSource returns the kernels of progs as a package named pkg and
// its Kernels table, recording seed and n.
func RandomSource(pkg string, seed uint64, progs []*Program) (kernelsGo, tableGo string) {
	var ks []*kb
	extra := fmt.Sprintf("\n// Seed and Count are the arguments of kerngen.Random that wrote the package.\nconst (\n\tSeed  = %d\n\tCount = %d\n)\n", seed, len(progs))
	for _, p := range progs {
		k := p.Kernel()
		ks = append(ks, &kb{name: p.Name, in: k.In, outs: k.Out, exprs: k.Exprs, src: p.Source(), block: Block, grid: Grid})
	}
	doc := "// Package " + pkg + " holds random kernels written by internal/kerngen, which\n" +
		"// testdata/generated runs on every backend and compares.\n"
	return packageSource(pkg, doc, []string{"math", "math/bits"}, ks, extra)
}
