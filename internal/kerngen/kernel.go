package kerngen

import (
	"fmt"
	"go/format"
	"math/rand/v2"
	"strings"
)

// A Kernel describes one generated kernel to the tests that run it. Every
// generated kernel has the signature
//
//	func(t gpu.Thread, a, b, c, out []uint64)
//
// and thread i reads its operands from a[i], b[i] and c[i] (the raw bits
// of values of the types In names) and writes len(Out) results to
// out[i*len(Out):]: the bits of values of the types Out names, "flags"
// for the branches a condition took.
type Kernel struct {
	Name string
	Fn   any      // the kernel function (in the generated package's table)
	In   []string // the type of a, b and c, or "count:T" for shift counts of a T
	Out  []string // the type of each result slot
	// Exprs says what each result slot holds: the expression stored, or
	// "if e" for the conditions e took as a branch.
	Exprs []string
	ULP   uint64 // the largest float difference allowed, in ULPs
	// Block and Grid are the launch shape of a random program, one thread
	// per input row (Block*Grid rows). They are zero for the operator kernels, which run one thread per input row in
	// blocks of up to 64.
	Block, Grid int
}

// Inputs returns the rows of operands a test runs k on: the cartesian
// product of its operands' edge values, thinned evenly to at most limit
// rows, then nrand rows of random values from r.
func (k Kernel) Inputs(limit, nrand int, r *rand.Rand) ([][3]uint64, error) {
	var domains [3][]uint64
	var types [3]Type
	for j := range domains {
		domains[j] = []uint64{0}
		types[j] = Numeric[0]
		if j >= len(k.In) {
			continue
		}
		name, count := strings.CutPrefix(k.In[j], "count:")
		t, ok := TypeNamed(name)
		if !ok {
			return nil, fmt.Errorf("kernel %s: operand %d has unknown type %q", k.Name, j, k.In[j])
		}
		types[j] = t
		domains[j] = t.Edges()
		if count {
			domains[j] = t.ShiftCounts()
		}
	}
	var all [][3]uint64
	for _, x := range domains[0] {
		for _, y := range domains[1] {
			for _, z := range domains[2] {
				all = append(all, [3]uint64{x, y, z})
			}
		}
	}
	rows := all
	if len(all) > limit {
		rows = nil
		step := float64(len(all)) / float64(limit)
		for i := range limit {
			rows = append(rows, all[int(float64(i)*step)])
		}
	}
	for range nrand {
		var row [3]uint64
		for j := range row {
			if j < len(k.In) {
				row[j] = types[j].Random(r)
				if strings.HasPrefix(k.In[j], "count:") && r.IntN(2) == 0 {
					row[j] = uint64(r.IntN(2 * types[j].Bits))
				}
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// A Mismatch is one result of one thread that differs from the reference.
type Mismatch struct {
	Slot int    // the result slot
	Row  int    // the input row (thread)
	Text string // the kernel, slot, expression, operands and both values
}

// Diff compares the results of k on two backends (got against want, the
// reference), thread by thread: every slot by its type's canonical bits,
// floats within k.ULP.
func (k Kernel) Diff(rows [][3]uint64, want, got []uint64) []Mismatch {
	var out []Mismatch
	n := len(k.Out)
	for i := range rows {
		for j, name := range k.Out {
			t, _ := TypeNamed(name)
			if name == "flags" {
				t = Numeric[9] // uint64
			}
			w, g := want[i*n+j], got[i*n+j]
			if t.Canon(w) == t.Canon(g) || t.Float && t.ULPs(w, g) <= k.ULP {
				continue
			}
			out = append(out, Mismatch{j, i, fmt.Sprintf("%s slot %d (%s %s) with a=%#x b=%#x c=%#x: got %#x, want %#x",
				k.Name, j, name, k.Exprs[j], rows[i][0], rows[i][1], rows[i][2], g, w)})
		}
	}
	return out
}

// Subnormal32 reports whether slot j of row is where a device that flushes
// float32 subnormals to zero may differ from Go: a float32 operand of the
// row, or the slot's float32 result in Go (want), is subnormal.
func (k Kernel) Subnormal32(row [3]uint64, j int, want uint64) bool {
	sub := func(bits uint64) bool { b := uint32(bits); return b&0x7f800000 == 0 && b&0x7fffff != 0 }
	for i, t := range k.In {
		if t == "float32" && i < len(row) && sub(row[i]) {
			return true
		}
	}
	return k.Out[j] == "float32" && sub(want)
}

// kb writes one operator kernel: its operands, then result slots.
type kb struct {
	name  string
	in    []string
	outs  []string
	exprs []string
	ulp   uint64
	body  strings.Builder
	// src, when set, is the kernel's whole source (a random program's),
	// and block and grid its launch shape.
	src         string
	block, grid int
}

func (k *kb) line(f string, a ...any) { fmt.Fprintf(&k.body, "\t"+f+"\n", a...) }

// slot is the out index of the next result.
func (k *kb) slot(typ, expr string) string {
	k.outs = append(k.outs, typ)
	k.exprs = append(k.exprs, expr)
	return fmt.Sprintf("r[%d]", len(k.outs)-1)
}

// outsConst names, in every kernel, the constant number of result slots.
const outsConst = "nout"

// store writes the value of expr (of type t) to the next slot, inside
// guard when it is not "".
func (k *kb) store(t Type, expr, guard string) {
	s := k.slot(t.Name, expr)
	stmt := s + " = " + t.ToBits(expr)
	if t.Bool {
		stmt = "if " + expr + " {\n\t\t" + s + " = 1\n\t}"
	}
	k.guarded(guard, stmt)
}

// branch writes the conditions expr (of type t) takes into the next slot:
// bit 0 for expr itself (bool) or expr < 1, bit 1 for expr == expr, so
// that expr is compiled as a branch condition, not only as a value.
func (k *kb) branch(t Type, expr, guard string) {
	s := k.slot("flags", "if "+expr)
	var b strings.Builder
	if t.Bool {
		fmt.Fprintf(&b, "if %s {\n\t\t%s = 1\n\t}", expr, s)
	} else {
		fmt.Fprintf(&b, "if %s < 1 {\n\t\t%s = 1\n\t}\n\tif %s == %s {\n\t\t%s |= 2\n\t}", expr, s, expr, expr, s)
	}
	k.guarded(guard, b.String())
}

func (k *kb) guarded(guard, stmt string) {
	if guard == "" {
		k.line("%s", stmt)
		return
	}
	k.line("if %s {\n\t\t%s\n\t}", guard, strings.ReplaceAll(stmt, "\n", "\n\t"))
}

// source is the kernel's Go source.
func (k *kb) source() string {
	if k.src != "" {
		return k.src
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n//gpu:kernel\nfunc %s(t gpu.Thread, a, b, c, out []uint64) {\n", k.name)
	fmt.Fprintf(&b, "\tconst %s = %d\n\ti := t.GlobalIdx().X\n", outsConst, len(k.outs))
	fmt.Fprintf(&b, "\tif i >= len(a) || i >= len(b) || i >= len(c) || i*%s+%s > len(out) {\n\t\treturn\n\t}\n", outsConst, outsConst)
	// The results gather in r and leave in one loop: one store for the
	// checks to prove free of races, not one per result.
	fmt.Fprintf(&b, "\tvar r [%s]uint64\n", outsConst)
	b.WriteString(k.body.String())
	fmt.Fprintf(&b, "\tfor j, v := range r {\n\t\tout[i*%s+j] = v\n\t}\n}\n", outsConst)
	return b.String()
}

// entry is the kernel's row of the generated table.
func (k *kb) entry() string {
	q := func(xs []string) string {
		var s []string
		for _, x := range xs {
			s = append(s, fmt.Sprintf("%q", x))
		}
		return strings.Join(s, ", ")
	}
	ulp := ""
	if k.ulp != 0 {
		ulp = fmt.Sprintf(", ULP: %d", k.ulp)
	}
	if k.block != 0 {
		ulp += fmt.Sprintf(", Block: %d, Grid: %d", k.block, k.grid)
	}
	return fmt.Sprintf("\t{Name: %q, Fn: %s, In: []string{%s},\n\t\tOut: []string{%s},\n\t\tExprs: []string{%s}%s},\n",
		k.name, k.name, q(k.in), q(k.outs), q(k.exprs), ulp)
}

// operands declares x, y and z: a[i], b[i] and c[i] read as the types
// the kernel's In names.
func (k *kb) operands(ts ...Type) {
	for j, t := range ts {
		k.in = append(k.in, t.Name)
		k.line("%s := %s", string("xyz"[j]), t.FromBits(string("abc"[j])+"[i]"))
	}
	if n := len(ts); n > 0 {
		k.line("%s = %s", strings.Repeat("_, ", n-1)+"_", strings.Join(strings.Split("xyz"[:n], ""), ", "))
	}
}

// packageSource is a kernel package of kernels, with the table Kernels
// (the []kerngen.Kernel describing them) in a second file.
func packageSource(pkg, doc string, imports []string, kernels []*kb, extra string) (kernelsGo, tableGo string) {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by internal/kerngen; DO NOT EDIT.\n\n%s\npackage %s\n\nimport (\n", doc, pkg)
	for _, imp := range imports {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString("\n\t\"github.com/gpukvet/gpukvet/gpu\"\n)\n")
	for _, imp := range imports {
		b.WriteString(useImport(imp))
	}
	b.WriteString(extra)
	for _, k := range kernels {
		b.WriteString(k.source())
	}
	var t strings.Builder
	fmt.Fprintf(&t, "// Code generated by internal/kerngen; DO NOT EDIT.\n\npackage %s\n\nimport \"github.com/gpukvet/gpukvet/internal/kerngen\"\n\n", pkg)
	t.WriteString("// Kernels describes every kernel of the package to the tests that run them.\nvar Kernels = []kerngen.Kernel{\n")
	for _, k := range kernels {
		t.WriteString(k.entry())
	}
	t.WriteString("}\n")
	return gofmt(b.String()), gofmt(t.String())
}

// gofmt formats generated source; source that does not parse is left as
// it is, for the compiler to report where.
func gofmt(src string) string {
	out, err := format.Source([]byte(src))
	if err != nil {
		return src
	}
	return string(out)
}

// useImport keeps an import used whichever kernels a package has.
func useImport(path string) string {
	uses := map[string]string{"math": "math.Pi", "math/bits": "bits.UintSize", "github.com/gpukvet/gpukvet/gpu/math32": "math32.Sqrt"}
	if u, ok := uses[path]; ok {
		return "\nvar _ = " + u + "\n"
	}
	return ""
}
