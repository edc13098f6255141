package memspace

import (
	"sort"

	"github.com/gpukvet/gpukvet/internal/itervars"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// checkIterationVars reports the local variables of cf whose address is
// kept past an iteration of the loop that declares them, where Go 1.22
// gives each iteration its own and the compiler cannot: loops without a
// constant bound, or more copies than one local variable may take. The
// compiler refuses these from the same analysis (internal/itervars).
func checkIterationVars(cf *codeFunc, s *kernelssa.SSA) {
	if s == nil {
		return
	}
	fn := s.Func(cf.fn)
	if fn == nil {
		return
	}
	for _, e := range itervars.Find(fn) {
		if e.Compiles() {
			continue
		}
		cf.breaks = append(cf.breaks, violation{pos: e.Pos, what: "keeps the address of " + e.Name + " past its iteration", msg: e.Message()})
	}
	sort.SliceStable(cf.breaks, func(i, j int) bool { return cf.breaks[i].pos < cf.breaks[j].pos })
}
