package lower

import (
	"go/ast"
	"go/token"
	"go/types"
)

// FindNoFuse records, in into, the operator positions of the float products
// that an explicit conversion rounds: in float64(x*y) + z Go requires the
// product to be rounded before the addition, so it must not be fused into
// an FMA, while a plain x*y + z may be. go/ssa drops a conversion to an
// identical type, so only the syntax tells the two apart; an SSA BinOp's Pos
// is its operator's position, which is what is recorded.
func FindNoFuse(files []*ast.File, info *types.Info, into map[token.Pos]bool) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			tv, ok := info.Types[call.Fun]
			if !ok || !tv.IsType() {
				return true
			}
			if bt, ok := tv.Type.Underlying().(*types.Basic); !ok || bt.Info()&types.IsFloat == 0 {
				if _, isParam := tv.Type.(*types.TypeParam); !isParam {
					return true
				}
			}
			arg := ast.Unparen(call.Args[0])
			if bin, ok := arg.(*ast.BinaryExpr); ok && bin.Op == token.MUL {
				into[bin.OpPos] = true
			}
			return true
		})
	}
}
