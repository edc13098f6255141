package kir

import (
	"fmt"
	"strings"
)

// Format returns a readable listing of f, for tests and debugging.
func Format(f *Func) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "func %s(", f.Name)
	for i, p := range f.Params {
		if i > 0 {
			sb.WriteString(", ")
		}
		if p.Bytes > 0 {
			fmt.Fprintf(&sb, "%s [%d]byte align %d", p.Name, p.Bytes, p.Align)
		} else {
			fmt.Fprintf(&sb, "%s %v", p.Name, p.Type)
		}
	}
	sb.WriteString(")\n")
	for _, b := range f.Blocks {
		fmt.Fprintf(&sb, "b%d:", b.Index)
		if b.Comment != "" {
			fmt.Fprintf(&sb, " ; %s", b.Comment)
		}
		if len(b.Preds) > 0 {
			sb.WriteString(" ; preds")
			for _, p := range b.Preds {
				fmt.Fprintf(&sb, " b%d", p.Index)
			}
		}
		sb.WriteString("\n")
		for _, v := range b.Values {
			sb.WriteString("\t")
			if v.Type.Kind != Void {
				fmt.Fprintf(&sb, "%v %v = ", v, v.Type)
			}
			sb.WriteString(v.Op.String())
			switch v.Op {
			case OpConst:
				fmt.Fprintf(&sb, " %#x", v.Imm)
			case OpParam:
				fmt.Fprintf(&sb, " %d+%d", v.Index, v.Imm)
			case OpSpecial:
				fmt.Fprintf(&sb, " %s", SpecialName[v.Index])
			case OpLocal:
				fmt.Fprintf(&sb, " %d align %d", v.Imm, v.Index)
			case OpShared:
				fmt.Fprintf(&sb, " #%d", v.Index)
			case OpAtomic:
				fmt.Fprintf(&sb, ".%v", AtomicOp(v.Index))
			case OpMath:
				fmt.Fprintf(&sb, ".%v", MathFn(v.Index))
			}
			if v.NoFuse {
				sb.WriteString(".nofuse")
			}
			for _, a := range v.Args {
				fmt.Fprintf(&sb, " %v", a)
			}
			sb.WriteString("\n")
		}
		switch b.Term {
		case TermJump:
			fmt.Fprintf(&sb, "\tjump b%d\n", b.Succs[0].Index)
		case TermBranch:
			fmt.Fprintf(&sb, "\tbranch %v b%d b%d\n", b.Cond, b.Succs[0].Index, b.Succs[1].Index)
		case TermReturn:
			sb.WriteString("\treturn\n")
		case TermTrap:
			fmt.Fprintf(&sb, "\ttrap %v pos=%d", b.Trap.Code, b.Trap.Pos)
			for _, a := range b.Trap.Args {
				if a != nil {
					fmt.Fprintf(&sb, " %v", a)
				}
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}
