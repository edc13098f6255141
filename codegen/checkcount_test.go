package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestCheckCounts logs, for the benchmark twins and the guards corpus,
// the index checks each entry keeps: the trap sites in its PTX (slow
// paths included), and the checks on the path every versioning test
// passes, in all and inside loops. It fails nothing: it is the table
// docs/status.md quotes (go test ./codegen -run TestCheckCounts -v).
func TestCheckCounts(t *testing.T) {
	m := build(t, codegen.Options{}, "github.com/gpukvet/gpukvet/bench/kernels", corpus+"guards")
	var rows []string
	for _, f := range m.IR.Funcs {
		all, loops := hotChecks(f)
		row := fmt.Sprintf("| %s | %d | %d | %d |", f.Name, ptxIndexTraps(t, m, f.Name), all, loops)
		if g, _, ok := kir.AssumeFacts(f); ok {
			all, loops := hotChecks(g)
			row += fmt.Sprintf(" %d | %d | %d |", ptxIndexTraps(t, m, g.Name), all, loops)
		} else {
			row += " | | |"
		}
		rows = append(rows, row)
	}
	t.Log("\n| kernel | plain: PTX trap sites | hot path | in loops | fast: PTX trap sites | hot path | in loops |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n" + strings.Join(rows, "\n"))
}

// ptxIndexTraps counts the index-out-of-range trap sites of an entry.
func ptxIndexTraps(t *testing.T, m *codegen.Module, name string) int {
	return strings.Count(entry(t, m, name), fmt.Sprintf("atom.global.cas.b32 %%tr0, [%%trap], 0, %d;", gpuabi.TrapIndex))
}

// hotChecks counts the index checks of f left where every test a
// versioning pass marked (kir.Value.Fact) holds, the path a launch whose
// tests pass runs: in all, and inside loops.
func hotChecks(f *kir.Func) (all, inLoops int) {
	g := kir.CloneFunc(f)
	for _, b := range g.Blocks {
		for _, v := range b.Values {
			if v.Fact && v.Type == kir.TBool {
				v.Op, v.Args, v.Imm = kir.OpConst, nil, 1
			}
		}
	}
	for range 2 {
		kir.FoldConstants(g)
		kir.Simplify(g)
		kir.RemoveUnreachable(g)
		kir.MergeBlocks(g)
		kir.DeadCode(g)
	}
	loops := kir.NaturalLoops(g, kir.Dominators(g))
	for _, b := range g.Blocks {
		if len(b.Succs) != 2 || b.Succs[1].Term != kir.TermTrap || b.Succs[1].Trap.Code != gpuabi.TrapIndex {
			continue
		}
		all++
		for _, l := range loops {
			if l.Blocks[b] {
				inLoops++
				break
			}
		}
	}
	return all, inLoops
}
