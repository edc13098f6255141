package kerngen

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"path"
	"strings"

	"github.com/gpukvet/gpukvet/internal/kernelapi"
)

// Math32Path is the import path of the float32 math kernels may call.
const Math32Path = "github.com/gpukvet/gpukvet/gpu/math32"

// Ops returns the operator suite, a kernel package named pkg: for every
// numeric type, kernels applying every operator the dialect allows
// (unary, arithmetic, bitwise, shifts by every count type, comparisons,
// compound assignments, ++ and --, conversions to every numeric type, min
// and max) and every function internal/kernelapi and gpu/math32 list, each
// with variable and constant operands, as a value and as a branch
// condition. kernelsGo is the kernels' file, tableGo the Kernels table.
func Ops(pkg string) (kernelsGo, tableGo string, err error) {
	var ks []*kb
	ks = append(ks, boolKernel())
	for _, t := range Numeric {
		ks = append(ks, unaryKernel(t), arithKernel(t), compareKernel(t), assignKernel(t), convKernel(t), minMaxKernel(t))
		if t.Int() {
			ks = append(ks, shiftKernel(t))
		}
	}
	calls, err := callKernels()
	if err != nil {
		return "", "", err
	}
	ks = append(ks, calls...)
	doc := "// Package " + pkg + " is the operator suite: kernels that apply every operator\n" +
		"// of the dialect to every type and call every function kernels may call,\n" +
		"// written by internal/kerngen (see testdata/generated).\n"
	k, tab := packageSource(pkg, doc, []string{"math", "math/bits", Math32Path}, ks, "")
	return k, tab, nil
}

func newKB(name string) *kb { return &kb{name: name} }

// boolKernel applies the operators of bool.
func boolKernel() *kb {
	k := newKB("Bool")
	k.operands(BoolType, BoolType)
	for _, e := range []string{"!x", "x && y", "x || y", "x == y", "x != y", "!x && y", "x || !y", "x && true", "false || y"} {
		k.store(BoolType, e, "")
		k.branch(BoolType, e, "")
	}
	return k
}

// unaryKernel applies - + and ^ to a variable and in branch conditions.
func unaryKernel(t Type) *kb {
	k := newKB("Unary_" + t.Name)
	k.operands(t)
	es := []string{"-x", "+x", "-(-x)"}
	if t.Int() {
		es = append(es, "^x", "^(-x)")
	}
	for _, e := range es {
		k.store(t, e, "")
		k.branch(t, e, "")
	}
	return k
}

// binary writes x op y, x op C and C op y for every constant C of t,
// dividing only by what is not zero.
func binary(k *kb, t Type, op string) {
	divides := t.Int() && (op == "/" || op == "%")
	constDivides := op == "/" || op == "%"
	guard := func(divisor string) string {
		if divides {
			return divisor + " != 0"
		}
		return ""
	}
	k.store(t, "x"+op+"y", guard("y"))
	k.branch(t, "x"+op+"y", guard("y"))
	for _, c := range t.constants() {
		if !(constDivides && c == "0") {
			k.store(t, "x"+op+"("+c+")", "")
			k.branch(t, "x"+op+"("+c+")", "")
		}
		k.store(t, "("+c+")"+op+"y", guard("y"))
		k.branch(t, "("+c+")"+op+"y", guard("y"))
	}
}

// arithOps are the binary operators of t.
func arithOps(t Type) []string {
	if t.Float {
		return []string{"+", "-", "*", "/"}
	}
	return []string{"+", "-", "*", "/", "%", "&", "|", "^", "&^"}
}

// arithKernel applies every binary operator of t (but shifts).
func arithKernel(t Type) *kb {
	k := newKB("Arith_" + t.Name)
	k.operands(t, t)
	for _, op := range arithOps(t) {
		binary(k, t, op)
	}
	return k
}

// compareKernel applies the comparison operators.
func compareKernel(t Type) *kb {
	k := newKB("Compare_" + t.Name)
	k.operands(t, t)
	for _, op := range []string{"==", "!=", "<", "<=", ">", ">="} {
		for _, e := range []string{"x" + op + "y", "x" + op + "(" + t.constants()[0] + ")", "(" + t.constants()[3] + ")" + op + "y", "x" + op + "x"} {
			k.store(BoolType, e, "")
			k.branch(BoolType, e, "")
		}
	}
	return k
}

// assignKernel applies every compound assignment, ++ and --.
func assignKernel(t Type) *kb {
	k := newKB("Assign_" + t.Name)
	k.operands(t, t)
	n := 0
	assign := func(stmt, guard string) {
		n++
		v := fmt.Sprintf("v%d", n)
		k.line("%s := x", v)
		k.guarded(guard, strings.ReplaceAll(stmt, "v", v))
		k.store(t, v, "")
	}
	for _, op := range arithOps(t) {
		guard := ""
		if t.Int() && (op == "/" || op == "%") {
			guard = "y != 0"
		}
		assign("v "+op+"= y", guard)
		c := t.constants()[2]
		assign("v "+op+"= "+c, "")
	}
	if t.Int() {
		assign("v <<= uint8(y)", "")
		assign("v >>= uint8(y)", "")
		assign("v <<= 3", "")
		assign("v >>= 3", "")
	}
	assign("v++", "")
	assign("v--", "")
	assign("v++\n\tv++", "")
	return k
}

// shiftKernel shifts values of t by counts of every integer type (those a
// signed type reads as negative skipped: Go panics) and by constants.
func shiftKernel(t Type) *kb {
	k := newKB("Shift_" + t.Name)
	k.operands(t)
	k.in = append(k.in, "count:"+t.Name)
	for _, u := range Numeric {
		if !u.Int() {
			continue
		}
		s := "s_" + u.Name
		k.line("%s := %s", s, u.FromBits("b[i]"))
		guard := ""
		if u.Signed {
			guard = s + " >= 0"
		}
		for _, e := range []string{"x << " + s, "x >> " + s, "(" + t.Name + "(1)) << " + s, "(" + t.Name + "(" + t.constants()[4] + ")) >> " + s} {
			k.store(t, e, guard)
			k.branch(t, e, guard)
		}
	}
	for _, c := range []int{0, 1, t.Bits - 1, t.Bits, t.Bits + 1, 100} {
		for _, op := range []string{"<<", ">>"} {
			e := fmt.Sprintf("x %s %d", op, c)
			k.store(t, e, "")
			k.branch(t, e, "")
		}
	}
	return k
}

// convKernel converts a value of t to every numeric type; a float whose
// truncation the target integer type cannot hold is left out, its result
// being implementation-specific in Go.
func convKernel(t Type) *kb {
	k := newKB("Conv_" + t.Name)
	k.operands(t)
	for _, r := range Numeric {
		e := r.Name + "(x)"
		guard := ""
		neg := ""
		if t.Float && r.Int() {
			guard, neg = floatFits(r, "x"), floatFits(r, "-x")
		}
		k.store(r, e, guard)
		k.branch(r, e, guard)
		k.store(r, r.Name+"(-x)", neg)
	}
	return k
}

// floatFits is the condition under which the float x truncates to a
// value of the integer type r.
func floatFits(r Type, x string) string {
	if r.Signed {
		return fmt.Sprintf("%s >= -0x1p%d && %s < 0x1p%d", x, r.Bits-1, x, r.Bits-1)
	}
	return fmt.Sprintf("%s > -1 && %s < 0x1p%d", x, x, r.Bits)
}

// minMaxKernel applies min and max to two and three operands.
func minMaxKernel(t Type) *kb {
	k := newKB("MinMax_" + t.Name)
	k.operands(t, t, t)
	c := t.constants()
	for _, f := range []string{"min", "max"} {
		for _, e := range []string{f + "(x, y)", f + "(y, x)", f + "(x, " + c[0] + ")", f + "(" + c[2] + ", y)", f + "(x, y, z)", f + "(x, x)"} {
			k.store(t, e, "")
			k.branch(t, e, "")
		}
	}
	return k
}

// callKernels writes a kernel per function of internal/kernelapi and
// gpu/math32 whose parameters and results are numbers or booleans.
func callKernels() ([]*kb, error) {
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	var ks []*kb
	for _, p := range append(kernelapi.Packages(), Math32Path) {
		pk, err := imp.Import(p)
		if err != nil {
			return nil, fmt.Errorf("kerngen: importing %s: %v", p, err)
		}
		names := kernelapi.Funcs(p)
		if p == Math32Path {
			names = exported(pk)
		}
		for _, name := range names {
			fn, ok := pk.Scope().Lookup(name).(*types.Func)
			if !ok {
				return nil, fmt.Errorf("kerngen: %s.%s is not a function", p, name)
			}
			if k := callKernel(p, name, fn.Signature()); k != nil {
				ks = append(ks, k)
			}
		}
	}
	return ks, nil
}

// exported returns the exported functions of a package, sorted.
func exported(p *types.Package) []string {
	var names []string
	for _, n := range p.Scope().Names() {
		if _, ok := p.Scope().Lookup(n).(*types.Func); ok && token.IsExported(n) {
			names = append(names, n)
		}
	}
	return names
}

// callKernel calls pkg.name with variables, with a constant first
// argument, and (for one result) in a branch condition; nil if the
// signature is not of numbers and booleans.
func callKernel(pkg, name string, sig *types.Signature) *kb {
	var ps, rs []Type
	for v := range sig.Params().Variables() {
		t, ok := basic(v.Type())
		if !ok {
			return nil
		}
		ps = append(ps, t)
	}
	for v := range sig.Results().Variables() {
		t, ok := basic(v.Type())
		if !ok {
			return nil
		}
		rs = append(rs, t)
	}
	k := newKB("Call_" + strings.ReplaceAll(path.Base(pkg), "/", "_") + "_" + name)
	k.operands(ps...)
	if !exactCall(pkg, name) {
		k.ulp = 4
	}
	vars := strings.Split("xyz"[:len(ps)], "")
	if pkg == "math/bits" && (strings.HasPrefix(name, "Add") || strings.HasPrefix(name, "Sub")) {
		vars[2] = "z&1" // Go leaves other carries undefined
	}
	call := func(args []string) {
		guard := callGuard(pkg, name, args)
		e := path.Base(pkg) + "." + name + "(" + strings.Join(args, ", ") + ")"
		if len(rs) == 1 {
			k.store(rs[0], e, guard)
			k.branch(rs[0], e, guard)
			return
		}
		var res []string
		for j := range rs {
			res = append(res, fmt.Sprintf("r%d_%d", len(k.outs), j))
		}
		k.line("%s := %s", strings.Join(res, ", "), e)
		for j, r := range rs {
			k.store(r, res[j], guard)
		}
	}
	call(vars)
	if len(ps) > 0 {
		cargs := append([]string{ps[0].constants()[2]}, vars[1:]...)
		if ps[0].Float {
			cargs[0] = "0.75"
		}
		call(cargs)
	}
	return k
}

// callGuard is the condition under which Go does not panic on the call:
// math/bits' Div and Rem with a zero divisor, Div with a quotient too big.
func callGuard(pkg, name string, args []string) string {
	if pkg != "math/bits" {
		return ""
	}
	switch {
	case strings.HasPrefix(name, "Div"):
		return fmt.Sprintf("%s != 0 && %s < %s", args[2], args[0], args[2])
	case strings.HasPrefix(name, "Rem"):
		return args[2] + " != 0"
	}
	return ""
}

// exactCall reports the functions whose results kernels must match bit
// for bit: math/bits, and the math functions rounded once or exact.
func exactCall(pkg, name string) bool {
	switch name {
	case "Sqrt", "Abs", "Floor", "Ceil", "Trunc", "FMA", "Copysign", "Round", "RoundToEven", "Max", "Min",
		"Float64frombits", "Float32frombits", "Float64bits", "Float32bits", "Inf", "NaN", "Dim", "Frexp", "Ldexp",
		"Modf", "Mod", "Remainder", "Signbit", "IsNaN", "IsInf":
		return true
	}
	return pkg == "math/bits"
}

// basic returns the Type of a numeric or boolean type.
func basic(t types.Type) (Type, bool) {
	b, ok := t.(*types.Basic)
	if !ok {
		return Type{}, false
	}
	return TypeNamed(b.Name())
}
