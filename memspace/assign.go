package memspace

import (
	"go/ast"
	"go/token"
)

// assignments calls visit for every place files store to a variable or
// take its address: lhs is what is stored to; rhs is the value stored when
// the statement gives one per name (nil for an operator assignment, ++,
// --, a range variable or a multi-value assignment or declaration); tok
// says how: the assignment's token (token.DEFINE, token.ASSIGN,
// token.ADD_ASSIGN, ...), token.VAR for a declaration with values (one
// without stores nothing: the zero value),
// token.INC or token.DEC, token.RANGE, or token.AND for &lhs. It is the
// one walk of stores that the analyses of values held in variables share.
func assignments(files []*ast.File, visit func(lhs, rhs ast.Expr, tok token.Token)) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					var r ast.Expr
					if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
						r = n.Rhs[i]
					}
					visit(l, r, n.Tok)
				}
			case *ast.ValueSpec:
				if len(n.Values) == 0 {
					break
				}
				for i, id := range n.Names {
					var r ast.Expr
					if len(n.Names) == len(n.Values) {
						r = n.Values[i]
					}
					visit(id, r, token.VAR)
				}
			case *ast.IncDecStmt:
				visit(n.X, nil, n.Tok)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					visit(n.X, nil, token.AND)
				}
			case *ast.RangeStmt:
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if x != nil {
						visit(x, nil, token.RANGE)
					}
				}
			}
			return true
		})
	}
}
