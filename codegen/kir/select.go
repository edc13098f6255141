package kir

// SelectBranches turns a triangle `if c { x = e }`, whose arm computes a
// few pure values that cannot fault, into straight code: the arm's values
// move before the branch and every phi of the block after it becomes a
// select on c. A short-circuit operator whose result is a value, `ok :=
// a && b` or a helper `return lo <= x && x <= hi`, is such a triangle
// with a phi of false (or true) and b; as a select it is a&b (a|b), so a
// condition built from several of them is one predicate and one branch,
// which FuseConditions and the assembler's if-conversion build on, where
// the branches cost a jump and a predicate move each and kept the values
// of every test alive across them. The arm's values then run also when c
// does not hold: at most selectMaxValues operations, none a load or an
// integer division (movable), though a float division or a math function
// is one. It returns how many branches it removed; MergeBlocks joins the
// blocks.
func SelectBranches(f *Func) int {
	n := 0
	for _, a := range ReversePostorder(f) {
		arm, join, ok := selectTriangle(f, a)
		if !ok {
			continue
		}
		c, onTrue := a.Cond, a.Succs[0] == arm
		for _, v := range arm.Values {
			v.Block = a
		}
		a.Values = append(a.Values, arm.Values...)
		ia, ir := predIndex(join, a), predIndex(join, arm)
		repl := map[*Value]*Value{}
		for _, phi := range join.Phis() {
			x, y := phi.Args[ia], phi.Args[ir]
			if !onTrue {
				x, y = y, x // the value when c holds first
			}
			repl[phi] = selectOf(f, a, c, y, x)
		}
		join.Values = join.Values[len(repl):]
		replaceUses(f, func(v *Value) *Value {
			if r, ok := repl[v]; ok {
				return r
			}
			return v
		})
		a.Term, a.Cond, a.Succs = TermJump, nil, []*Block{join}
		join.Preds = []*Block{a}
		arm.Values, arm.Preds, arm.Succs, arm.Term = nil, nil, nil, TermReturn
		n++
	}
	if n > 0 {
		RemoveUnreachable(f)
	}
	return n
}

// selectMaxValues bounds the work a triangle's arm may add to the path
// that skipped it.
const selectMaxValues = 6

// selectTriangle matches a's branch as a triangle: one successor, the arm,
// entered from a alone, holds at most selectMaxValues movable values and
// jumps to the other, the join, which a and the arm alone enter.
func selectTriangle(f *Func, a *Block) (arm, join *Block, ok bool) {
	if a.Term != TermBranch || len(a.Succs) != 2 || a.Succs[0] == a.Succs[1] {
		return nil, nil, false
	}
	for i, s := range a.Succs {
		j := a.Succs[1-i]
		if s == a || j == a || j == f.Blocks[0] || len(s.Preds) != 1 || s.Term != TermJump || s.Succs[0] != j ||
			len(j.Preds) != 2 || len(s.Values) > selectMaxValues || !movable(s) {
			continue
		}
		if !phisTyped(j) {
			return nil, nil, false
		}
		return s, j, true
	}
	return nil, nil, false
}

// phisTyped reports whether every argument of b's phis has its phi's type
// (a select's operands must; a phi may join a typed nil pointer with a
// generic one).
func phisTyped(b *Block) bool {
	for _, phi := range b.Phis() {
		for _, a := range phi.Args {
			if a.Type != phi.Type {
				return false
			}
		}
	}
	return true
}

// selectOf is c ? x : y at the end of b; for booleans with a constant arm
// it is the and or or of c and the other (x&&y's short circuit).
func selectOf(f *Func, b *Block, c, x, y *Value) *Value {
	if c.Type.Kind == Bool && x.Type.Kind == Bool {
		if k, ok := constBits(y); ok && k == 0 {
			return f.NewValue(b, OpAnd, TBool, c, x)
		}
		if k, ok := constBits(x); ok && k == 1 {
			return f.NewValue(b, OpOr, TBool, c, y)
		}
	}
	return f.NewValue(b, OpSelect, x.Type, c, x, y)
}
