package replay

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"math/bits"

	"github.com/gpukvet/gpukvet/internal/math32api"
)

// errDivZero is the trap of an integer division or remainder by zero.
var errDivZero = errors.New("integer division by zero")

// binop computes x op y for operands of type t (the result type of a
// comparison is bool; of anything else, t).
func binop(op token.Token, t types.Type, x, y value) (value, error) {
	if b := basic(t); b != nil && b.Info()&types.IsFloat != 0 {
		return floatOp(op, t, x.f, y.f)
	}
	if op == token.EQL || op == token.NEQ {
		eq := x.n == y.n && x.obj == y.obj && x.off == y.off
		if op == token.NEQ {
			eq = !eq
		}
		return boolValue(eq), nil
	}
	return intOp(op, t, x.n, y.n)
}

func boolValue(b bool) value {
	if b {
		return value{n: 1}
	}
	return value{}
}

func floatOp(op token.Token, t types.Type, x, y float64) (value, error) {
	switch op {
	case token.ADD:
		return value{f: round(x+y, t)}, nil
	case token.SUB:
		return value{f: round(x-y, t)}, nil
	case token.MUL:
		return value{f: round(x*y, t)}, nil
	case token.QUO:
		return value{f: round(x/y, t)}, nil
	case token.EQL:
		return boolValue(x == y), nil
	case token.NEQ:
		return boolValue(x != y), nil
	case token.LSS:
		return boolValue(x < y), nil
	case token.LEQ:
		return boolValue(x <= y), nil
	case token.GTR:
		return boolValue(x > y), nil
	case token.GEQ:
		return boolValue(x >= y), nil
	}
	return value{}, fmt.Errorf("float operator %s", op)
}

// intOp computes x op y on integers (or bools) of type t; t's signedness
// decides division, comparison and right shifts.
func intOp(op token.Token, t types.Type, x, y int64) (value, error) {
	u := isUnsigned(t)
	switch op {
	case token.ADD:
		return value{n: wrap(x+y, t)}, nil
	case token.SUB:
		return value{n: wrap(x-y, t)}, nil
	case token.MUL:
		return value{n: wrap(x*y, t)}, nil
	case token.QUO, token.REM:
		return divide(op, t, x, y)
	case token.AND:
		return value{n: x & y}, nil
	case token.OR:
		return value{n: x | y}, nil
	case token.XOR:
		return value{n: wrap(x^y, t)}, nil
	case token.AND_NOT:
		return value{n: x &^ y}, nil
	case token.SHL:
		if uint64(y) >= 64 {
			return value{}, nil
		}
		return value{n: wrap(x<<uint64(y), t)}, nil
	case token.SHR:
		return value{n: shiftRight(t, x, uint64(y))}, nil
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		c := compare(u, x, y)
		return boolValue(op == token.LSS && c < 0 || op == token.LEQ && c <= 0 ||
			op == token.GTR && c > 0 || op == token.GEQ && c >= 0), nil
	}
	return value{}, fmt.Errorf("integer operator %s", op)
}

func divide(op token.Token, t types.Type, x, y int64) (value, error) {
	if y == 0 {
		return value{}, errDivZero
	}
	if isUnsigned(t) {
		if op == token.QUO {
			return value{n: wrap(int64(uint64(x)/uint64(y)), t)}, nil
		}
		return value{n: wrap(int64(uint64(x)%uint64(y)), t)}, nil
	}
	if y == -1 { // MinInt / -1 wraps in Go
		if op == token.QUO {
			return value{n: wrap(-x, t)}, nil
		}
		return value{}, nil
	}
	if op == token.QUO {
		return value{n: x / y}, nil
	}
	return value{n: x % y}, nil
}

func shiftRight(t types.Type, x int64, s uint64) int64 {
	if isUnsigned(t) {
		if s >= 64 {
			return 0
		}
		return int64(uint64(x) >> s)
	}
	if s >= 64 {
		s = 63
	}
	return x >> s
}

func compare(unsigned bool, x, y int64) int {
	switch {
	case x == y:
		return 0
	case unsigned && uint64(x) < uint64(y), !unsigned && x < y:
		return -1
	}
	return 1
}

// unop computes op x for an operand of type t (not a load: exec does
// those).
func unop(op token.Token, t types.Type, x value) (value, error) {
	switch op {
	case token.SUB:
		if isFloat(t) {
			return value{f: -x.f}, nil
		}
		return value{n: wrap(-x.n, t)}, nil
	case token.NOT:
		return boolValue(x.n == 0), nil
	case token.XOR:
		return value{n: wrap(^x.n, t)}, nil
	}
	return value{}, fmt.Errorf("unary operator %s", op)
}

// convert converts x from type from to type to (numbers; anything else
// keeps its value).
func convert(x value, from, to types.Type) value {
	fromF, toF := isFloat(from), isFloat(to)
	switch {
	case fromF && toF:
		return value{f: round(x.f, to)}
	case fromF:
		return value{n: floatToInt(x.f, to)}
	case toF:
		if isUnsigned(from) {
			return value{f: round(float64(uint64(x.n)), to)}
		}
		return value{f: round(float64(x.n), to)}
	case basic(to) != nil && basic(to).Info()&types.IsInteger != 0:
		return value{n: wrap(x.n, to)}
	}
	return x
}

// f1 holds the functions of package math of one float64.
var f1 = map[string]func(float64) float64{
	"Sqrt": math.Sqrt, "Abs": math.Abs, "Floor": math.Floor, "Ceil": math.Ceil,
	"Trunc": math.Trunc, "Exp": math.Exp, "Log": math.Log, "Sin": math.Sin, "Cos": math.Cos,
	"Round": math.Round, "Log2": math.Log2, "Exp2": math.Exp2, "Tanh": math.Tanh,
	"Tan": math.Tan, "Atan": math.Atan,
}

// f2 is the float functions of two arguments mathCall computes.
var f2 = map[string]func(float64, float64) float64{
	"Pow": math.Pow, "Atan2": math.Atan2, "Hypot": math.Hypot, "Mod": math.Mod,
}

// mathCall computes the functions of packages math and math/bits that
// kernels call most, and those of gpu/math32 that are math's function of
// the same name rounded to float32 (the analysed program has no SSA body
// for a function of another package, so the replay cannot step into
// them); ok is false for the others.
func mathCall(pkg, name string, args []value, t types.Type) (value, bool) {
	floats := pkg == "math" || pkg == math32api.Path
	switch {
	case floats && f1[name] != nil && len(args) == 1:
		return value{f: round(f1[name](args[0].f), t)}, true
	case floats && f2[name] != nil && len(args) == 2:
		return value{f: round(f2[name](args[0].f, args[1].f), t)}, true
	case pkg == "math" && name == "Float32bits":
		return value{n: int64(math.Float32bits(float32(args[0].f)))}, true
	case pkg == "math" && name == "Float32frombits":
		return value{f: float64(math.Float32frombits(uint32(args[0].n)))}, true
	case pkg == "math/bits" && name == "OnesCount32":
		return value{n: int64(bits.OnesCount32(uint32(args[0].n)))}, true
	case pkg == "math/bits" && name == "TrailingZeros32":
		return value{n: int64(bits.TrailingZeros32(uint32(args[0].n)))}, true
	case pkg == "math/bits" && name == "LeadingZeros32":
		return value{n: int64(bits.LeadingZeros32(uint32(args[0].n)))}, true
	case pkg == "math/bits" && name == "Len32":
		return value{n: int64(bits.Len32(uint32(args[0].n)))}, true
	}
	return value{}, false
}
