package main

import (
	"bufio"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// inst is one SASS instruction as cuobjdump prints it.
type inst struct {
	addr int
	pred string // "@P0", "@!P1" or ""
	op   string // the mnemonic with its modifiers: "IADD3.X", "LDG.E.CONSTANT"
	args string
}

var (
	funcLine = regexp.MustCompile(`^\s*Function : (\S+)`)
	instLine = regexp.MustCompile(`^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;`)
	resFunc  = regexp.MustCompile(`^\s*Function (\S+):`)
	resLine  = regexp.MustCompile(`REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)`)
	branchTo = regexp.MustCompile(`0x([0-9a-f]+)\s*$`)
)

// parseSASS reads `cuobjdump -sass` output: the instructions of each
// function, without the padding after its last instruction (the
// branch-to-self and the NOPs that fill the section).
func parseSASS(r io.Reader) (map[string][]inst, error) {
	funcs := map[string][]inst{}
	var name string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := funcLine.FindStringSubmatch(line); m != nil {
			name = m[1]
			continue
		}
		m := instLine.FindStringSubmatch(line)
		if m == nil || name == "" {
			continue
		}
		addr, _ := strconv.ParseInt(m[1], 16, 64)
		funcs[name] = append(funcs[name], parseInst(int(addr), m[2]))
	}
	for n, is := range funcs {
		funcs[n] = trimPadding(is)
	}
	return funcs, sc.Err()
}

func parseInst(addr int, text string) inst {
	in := inst{addr: addr}
	if strings.HasPrefix(text, "@") {
		in.pred, text, _ = strings.Cut(text, " ")
		text = strings.TrimSpace(text)
	}
	in.op, in.args, _ = strings.Cut(text, " ")
	in.args = strings.TrimSpace(in.args)
	return in
}

// trimPadding drops the branch-to-self that ends every function and what
// follows it.
func trimPadding(is []inst) []inst {
	for i, in := range is {
		if t, ok := target(in); ok && in.op == "BRA" && in.pred == "" && t == in.addr {
			return is[:i]
		}
	}
	return is
}

// target is a branch's target address.
func target(in inst) (int, bool) {
	if in.op != "BRA" && !strings.HasPrefix(in.op, "BRA.") {
		return 0, false
	}
	m := branchTo.FindStringSubmatch(in.args)
	if m == nil {
		return 0, false
	}
	t, _ := strconv.ParseInt(m[1], 16, 64)
	return int(t), true
}

// loop is the address range of a loop: from its header, the target of a
// backward branch, to the last branch back to it.
type loop struct{ from, to int }

// innermostLoops returns the back-edge regions that hold no other one,
// in address order.
func innermostLoops(is []inst) []loop {
	last := map[int]int{} // header -> last back edge
	for _, in := range is {
		if t, ok := target(in); ok && t <= in.addr {
			last[t] = max(last[t], in.addr)
		}
	}
	var loops []loop
	for h, e := range last {
		loops = append(loops, loop{h, e})
	}
	var inner []loop
	for _, l := range loops {
		holds := false
		for _, o := range loops {
			if o != l && o.from >= l.from && o.to <= l.to {
				holds = true
			}
		}
		if !holds {
			inner = append(inner, l)
		}
	}
	slices.SortFunc(inner, func(a, b loop) int { return a.from - b.from })
	return inner
}

// resUsage reads `cuobjdump -res-usage` output: registers, stack and
// local memory per thread of each function.
func resUsage(r io.Reader) (map[string]usage, error) {
	out := map[string]usage{}
	var name string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := resFunc.FindStringSubmatch(sc.Text()); m != nil {
			name = m[1]
			continue
		}
		if m := resLine.FindStringSubmatch(sc.Text()); m != nil && name != "" {
			atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
			out[name] = usage{regs: atoi(m[1]), stack: atoi(m[2]), local: atoi(m[4])}
		}
	}
	return out, sc.Err()
}

// usage is a function's resources per thread.
type usage struct{ regs, stack, local int }
