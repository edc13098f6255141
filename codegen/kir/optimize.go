package kir

import (
	"fmt"
	"slices"
	"strings"
)

// OptOptions configure Optimize.
type OptOptions struct {
	// Disable runs no optimization at all (gpukvet build -O0): the
	// function stays as lowered, every bounds check and every local in
	// memory, for debugging the codegen. Loops still poll the stop word
	// (PollLoops): that is Go's meaning, not an optimization.
	Disable bool
	// KeepBoundsChecks turns off the passes that rest on value ranges:
	// bounds-check elimination and 32-bit index arithmetic.
	KeepBoundsChecks bool
	// Verify runs Verify after every pass and names the pass that broke
	// an invariant (tests).
	Verify bool
	// Skip names passes of the pipeline to leave out, every occurrence
	// of each (gpukvet build -skip-passes): for measuring on a GPU what a
	// pass buys. CheckPassNames says whether the names exist.
	Skip []string
}

// A Pass is one optimization of the pipeline.
type Pass struct {
	Name string
	Run  func(*Func) int
	// Ranges marks a pass that KeepBoundsChecks turns off, or replaces
	// with Exact when set.
	Ranges bool
	// Exact is the pass without what rests on value ranges.
	Exact func(*Func) int
}

// Passes is the optimization pipeline, in order. It is target-independent:
// every emitter (PTX, LLVM IR, SPIR-V) starts from its output.
var Passes = []Pass{
	{Name: "fold", Run: FoldConstants},
	{Name: "mask-remainders", Run: MaskRemainderTests},
	{Name: "simplify", Run: Simplify},
	{Name: "unroll", Run: Unroll},
	{Name: "fold", Run: FoldConstants},
	{Name: "sroa", Run: ScalarReplace},
	{Name: "fold", Run: FoldConstants},
	{Name: "simplify", Run: Simplify},
	{Name: "bce", Run: EliminateBoundsChecks, Ranges: true},
	{Name: "fold", Run: FoldConstants},
	{Name: "unroll-partial", Run: UnrollPartial},
	{Name: "unroll-runtime", Run: UnrollRuntime},
	{Name: "licm", Run: HoistInvariants},
	{Name: "loop-checks", Run: LoopChecks, Ranges: true},
	{Name: "merge", Run: MergeBlocks},
	{Name: "checks-first", Run: ChecksFirst},
	{Name: "merge", Run: MergeBlocks},
	{Name: "combine-checks", Run: CombineChecks},
	{Name: "range-checks", Run: RangeChecks, Ranges: true},
	{Name: "select", Run: SelectBranches},
	{Name: "merge", Run: MergeBlocks},
	{Name: "fuse-conditions", Run: FuseConditions},
	{Name: "split-barriers", Run: SplitAtBarriers},
	{Name: "version-checks", Run: VersionChecks, Ranges: true, Exact: VersionChecksExact},
	{Name: "fold", Run: FoldConstants},
	{Name: "forward-stores", Run: ForwardStores},
	{Name: "offsets", Run: SplitConstOffsets},
	{Name: "simplify", Run: Simplify},
	{Name: "narrow", Run: NarrowIndices, Ranges: true},
	{Name: "simplify", Run: Simplify},
	{Name: "strength", Run: StrengthReduce},
	{Name: "sink", Run: SinkValues},
	{Name: "cold-checks", Run: RecomputeColdChecks},
	{Name: "merge", Run: MergeBlocks},
	{Name: "dce", Run: func(f *Func) int { DeadCode(f); return 0 }},
	{Name: "poll-loops", Run: PollLoops},
}

// CheckPassNames reports a name that is no pass of the pipeline, with the
// names that are.
func CheckPassNames(names []string) error {
	var known []string
	for _, p := range Passes {
		if !slices.Contains(known, p.Name) {
			known = append(known, p.Name)
		}
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return fmt.Errorf("no optimizer pass is named %q (the passes: %s)", n, strings.Join(known, ", "))
		}
	}
	return nil
}

// Optimize runs the optimization pipeline (Passes) over f. It is the one
// entry point every target's compiler calls after lowering.
func Optimize(f *Func, o OptOptions) error {
	if o.Disable {
		PollLoops(f)
		return nil
	}
	if err := CheckPassNames(o.Skip); err != nil {
		return err
	}
	for _, p := range Passes {
		if slices.Contains(o.Skip, p.Name) {
			continue
		}
		run := p.Run
		if p.Ranges && o.KeepBoundsChecks {
			if run = p.Exact; run == nil {
				continue
			}
		}
		run(f)
		if o.Verify {
			if err := Verify(f); err != nil {
				return fmt.Errorf("after pass %s: %v", p.Name, err)
			}
		}
	}
	return nil
}
