package hostgen

import (
	"fmt"
	"go/types"
	"regexp"
	"strings"
)

// The cpu backend's entry to each kernel: gen writes, per kernel K,
//
//	func gpukvetCPUK(gpukvetArgs []any) (thread func(gpu.Thread), block func(backend.CPUBlock)) {
//		gpukvetArg0 := gpukvetArgs[0].(float32)
//		gpukvetArg1 := []float32(gpukvetArgs[1].([]float32))
//		thread = func(gpukvetT gpu.Thread) { K(gpukvetT, gpukvetArg0, gpukvetArg1) }
//		block = func(gpukvetB backend.CPUBlock) { ... }
//		return thread, block
//	}
//
// (names with gen's prefix, so that none shadows a name of the package),
// and registers it with `CPU: &backend.CPUCode{Bind: gpukvetCPUK}`, so that
// the cpu backend calls the kernel without reflection. thread runs one
// thread; block runs a whole block as loops over its threads (the race
// detector's schedule uses thread, every other one block).
//
// block holds copies of the kernel's body (with /*line*/ directives, so
// that a trap names the kernel's file and line): the block's indices are
// read once per block (backend.CPUBlock, the API for generated code only,
// which gives each iteration its gpu.Thread) and t.ThreadIdx(),
// t.BlockIdx() and t.GlobalIdx() become expressions of the loop counters,
// so that the compiler keeps them in registers; a `return` ends the
// thread's iteration.
//
// The X loop of a kernel without barriers counts the thread's global X,
// up to the row's end (gpukvetEX). Where the body indexes slice
// parameters with the global X, the row is written twice, under a test
// that the row's range lies in those slices and else (fastCond): the same
// statements, but Go's compiler drops the bounds checks, and the kernel's
// own length tests, in the first; if the body cannot trap there
// (trapFree), that copy does not record the running thread either. A kernel without barriers whose
// body reads no index but the global one runs spans of blocks in one call
// (registered with Spans: true; see backend.CPUCode.Spans): a run of
// blocks along X is one loop, as long as the Go loop it is measured
// against.
//
// A kernel without barriers is one loop over the threads. A kernel with
// barriers is split at them (the work-item loops of MCUDA and POCL): the
// statements between two barriers become one loop over the block's
// threads, a barrier the end of such a loop; an if or a for whose body
// holds a barrier stays one statement around the loops of its body, its
// condition evaluated by every thread (PhaseUniform reports threads
// that disagree, which the divergence check rules out); a variable that
// lives across a barrier becomes a field of a per-thread struct (kept from
// block to block on a worker); a thread that returns is
// skipped by the loops after it (and a barrier after that fails, as on the
// other schedules); `x := gpu.Shared[T](t)` at the top of the body is
// evaluated once per block. The shapes it does not split, which keep the
// coroutines of the cpu backend (the generated file says why for each
// kernel): a barrier inside a function the kernel calls, inside a function
// literal, a switch, select or range loop, or not as a statement of its
// own; a loop around a barrier without a condition, or whose body breaks
// or continues it; goto; a labelled statement around a barrier that a
// branch names; a variable living across a barrier whose type cannot be
// named in the generated file (a type declared inside the kernel); a local
// constant or type used across a barrier; defer and go; a dot import.
// A kernel without barriers whose body cannot be copied (defer, go, a dot
// import) runs as a loop that calls it once per thread.

// cpuEntry is a kernel's block function, as blockFunc writes it.
type cpuEntry struct {
	block, locals, why string
	spans              bool // block runs spans of blocks (backend.CPUCode.Spans)
}

// planCPU writes every kernel's block function, before the registrations,
// which say whether it runs spans of blocks.
func (g *generation) planCPU() {
	g.cpu = map[string]cpuEntry{}
	for _, k := range g.p.kernels {
		args, _ := g.cpuArgs(k)
		g.cpu[k.name] = g.blockFunc(k, kernelCall(k, args))
	}
}

// kernelCall returns the call of kernel k with arguments args as thread t.
func kernelCall(k *kernel, args []string) func(t string) string {
	return func(t string) string { return k.name + "(" + strings.Join(append([]string{t}, args...), ", ") + ")" }
}

// writeCPUEntry writes kernel k's cpu entry.
func (g *generation) writeCPUEntry(k *kernel) {
	fn := "gpukvetCPU" + k.name
	args, binds := g.cpuArgs(k)
	call := kernelCall(k, args)
	e := g.cpu[k.name]
	block, locals, why := e.block, e.locals, e.why
	if locals != "" {
		g.w("\n// gpukvetLocals%s holds the locals of kernel %s that live across a\n// barrier, one per thread.\n", k.name, k.name)
		g.w("type gpukvetLocals%s struct {\n%s}\n", k.name, locals)
	}
	g.w("\n// %s binds kernel %s's arguments for the cpu\n", fn, k.name)
	g.w("// backend, which calls it without reflection.\n")
	if why != "" {
		if block == "" {
			g.w("// Its threads run as coroutines: %s.\n", why)
		} else {
			g.w("// Its block loop calls it per thread: %s.\n", why)
		}
	}
	g.w("func %s(gpukvetArgs []any) (thread func(gpu.Thread), block func(backend.CPUBlock)) {\n", fn)
	for _, b := range binds {
		g.w("%s", b)
	}
	g.w("\tthread = func(gpukvetT gpu.Thread) { %s }\n", call("gpukvetT"))
	if block != "" {
		g.w("\tblock = %s\n", block)
	}
	g.w("\t%s return thread, block\n}\n", lineReset)
}

// cpuArgs returns the names of kernel k's bound arguments, and the
// statements that bind them from the launch's []any.
func (g *generation) cpuArgs(k *kernel) (names, binds []string) {
	qual := g.imports.qualifier
	for i, v := range k.params {
		t := v.Type()
		name := fmt.Sprintf("gpukvetArg%d", i)
		names = append(names, name)
		if s, ok := t.Underlying().(*types.Slice); ok {
			// The cpu backend's memory holds a []E; a named slice type
			// converts from it.
			binds = append(binds, fmt.Sprintf("\t%s := %s(gpukvetArgs[%d].([]%s))\n", name, types.TypeString(t, qual), i, types.TypeString(s.Elem(), qual)))
		} else {
			binds = append(binds, fmt.Sprintf("\t%s := gpukvetArgs[%d].(%s)\n", name, i, types.TypeString(t, qual)))
		}
	}
	return names, binds
}

// blockFunc returns kernel k's block function (block "" if its threads
// must run as coroutines), the fields of its per-thread locals ("" if
// none), whether it runs spans of blocks and, when it is not a copy of the
// kernel's body split at its barriers, why; call(t) is the call of the
// kernel as thread t.
func (g *generation) blockFunc(k *kernel, call func(t string) string) cpuEntry {
	barrier := mayBarrier(g.p, k)
	cg, err := newCPUGen(g.p, k, barrier, g.imports.qualifier)
	var block string
	if err == nil {
		block, err = cg.block()
	}
	if err == nil {
		return cpuEntry{block: block, locals: cg.locals, spans: cg.spans}
	}
	if !barrier {
		block = loopCalling(call(threadAt))
	}
	return cpuEntry{block: block, why: err.Error()}
}

// loopCalling is a block function that runs stmt for each thread.
func loopCalling(stmt string) string {
	return blockHead +
		threadLoops("", "", stmt+"\n", nil) + "}\n"
}

// blockHead starts a block function: the block's indices, read once, in
// variables of their own (which the compiler keeps in registers), and
// gpukvetEX, the end of its rows' global X (of its span's: Span is 1 for
// a kernel that does not take spans).
const blockHead = `func(gpukvetB backend.CPUBlock) {
	gpukvetBid, gpukvetBase, gpukvetBdim := gpukvetB.Index()
	gpukvetBX, gpukvetBY, gpukvetBZ := gpukvetBase[0], gpukvetBase[1], gpukvetBase[2]
	gpukvetNX, gpukvetNY, gpukvetNZ := gpukvetBdim[0], gpukvetBdim[1], gpukvetBdim[2]
	gpukvetEX := gpukvetBX + gpukvetNX*gpukvetB.Span
	_, _, _, _, _ = gpukvetBid, gpukvetBX, gpukvetBY, gpukvetBZ, gpukvetEX
`

// threadAt is the running thread of a block function's loops, which
// records its X for a trap report.
const threadAt = "gpukvetB.Thread(gpukvetX, gpukvetY, gpukvetZ)"

// recordX records the running thread's (global) X for a trap report, as
// threadAt does, in an iteration that has no use for its gpu.Thread.
const recordX = "gpukvetB.Cursor[0] = gpukvetGX"

// threadLoops is the loop over a block's threads (X fastest), with label
// (if not "") on the X loop and body inside; lin keeps gpukvetI, the
// thread's linear index. The X loop of a kernel without barriers counts
// the thread's global X, gpukvetGX, beside its X in the block: a loop
// bounded by the global index lets the compiler drop the kernel's own
// checks of it against a slice's length where a fast copy's condition
// (see fastCond) holds. A loop with lin counts X and gpukvetI, and
// derives gpukvetGX.
//
// When fast is not nil, the X loop is written twice, fast.body under
// fast.cond and body else, the same statements in both (but for the
// record of the running thread), so that only the compiler's knowledge
// differs.
func threadLoops(label, lin, body string, fast *fastCopy) string {
	var b strings.Builder
	if lin != "" {
		b.WriteString("{\ngpukvetI := 0\n")
	}
	b.WriteString("for gpukvetZ := 0; gpukvetZ < gpukvetNZ; gpukvetZ++ {\nfor gpukvetY := 0; gpukvetY < gpukvetNY; gpukvetY++ {\ngpukvetB.Row(gpukvetY, gpukvetZ)\n")
	xLoop := func(label, body string) {
		if label != "" {
			b.WriteString(label + ":\n")
		}
		if lin != "" {
			// The loops of a kernel with barriers index their threads'
			// locals by gpukvetI: a third counter would cost the
			// register that the per-thread locals need.
			b.WriteString("for gpukvetX := 0; gpukvetX < gpukvetNX; gpukvetX, gpukvetI = gpukvetX+1, gpukvetI+1 {\ngpukvetGX := gpukvetBX + gpukvetX\n_ = gpukvetGX\n")
		} else {
			b.WriteString("for gpukvetX, gpukvetGX := 0, gpukvetBX; gpukvetGX < gpukvetEX; gpukvetX, gpukvetGX = gpukvetX+1, gpukvetGX+1 {\n")
		}
		b.WriteString(body)
		b.WriteString("}\n")
	}
	if fast != nil {
		b.WriteString("if " + fast.cond + " {\n")
		xLoop(label, fast.body)
		b.WriteString("} else {\n")
		// Labels are the function's: the second copy's is another.
		other := label
		if label != "" {
			other = label + "Else"
			body = regexp.MustCompile(`\bcontinue `+label+`\b`).ReplaceAllString(body, "continue "+other)
		}
		xLoop(other, body)
		b.WriteString("}\n")
	} else {
		xLoop(label, body)
	}
	b.WriteString("}\n}\n")
	if lin != "" {
		b.WriteString("}\n")
	}
	return b.String()
}

// lineReset marks where the generated file's own positions resume after the
// copies of kernel bodies; resetLines turns it into a line directive.
const lineReset = "/*gpukvet:line*/"

var lineResetRE = regexp.MustCompile(regexp.QuoteMeta(lineReset))

// resetLines replaces each lineReset in the formatted file src, named
// name, by a directive giving its own line.
func resetLines(src []byte, name string) []byte {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if strings.Contains(l, lineReset) {
			lines[i] = lineResetRE.ReplaceAllString(l, fmt.Sprintf("/*line %s:%d:1*/", name, i+1))
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
