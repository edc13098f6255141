package main

import (
	"fmt"
	"strconv"
	"strings"
)

// class is a kind of instruction the table counts.
type class struct {
	name string
	is   func(inst) bool
}

func prefix(p ...string) func(inst) bool {
	return func(in inst) bool {
		for _, q := range p {
			if in.op == q || strings.HasPrefix(in.op, q+".") {
				return true
			}
		}
		return false
	}
}

// hasMod reports whether a modifier of op is mod ("X" in "LEA.HI.X.SX32").
func hasMod(op, mod string) bool {
	parts := strings.Split(op, ".")
	for _, p := range parts[1:] {
		if p == mod {
			return true
		}
	}
	return false
}

// classes are the table's columns after the totals. ".X" is the high
// half of a 64-bit add (IADD3.X, LEA.HI.X, IMAD.X): one per 64-bit
// addition the code does; "WIDE" is IMAD.WIDE, a 32×32→64 multiply-add
// (how an address is usually formed); "cbr" is a predicated branch or
// exit (a test that leaves the straight path: bounds checks among them);
// "CALL" a call of a subroutine ptxas adds (64-bit division), whose
// instructions are counted where they lie, after the kernel's code.
var classes = []class{
	{"LDG", prefix("LDG")},
	{"STG", prefix("STG")},
	{"LDS", prefix("LDS")},
	{"STS", prefix("STS")},
	{"BAR", prefix("BAR")},
	{"LDL/STL", prefix("LDL", "STL")},
	{".X", func(in inst) bool { return hasMod(in.op, "X") }},
	{"WIDE", func(in inst) bool { return strings.HasPrefix(in.op, "IMAD.WIDE") }},
	{"ISETP", prefix("ISETP", "UISETP")},
	{"cbr", func(in inst) bool { return in.pred != "" && (prefix("BRA", "EXIT")(in)) }},
	{"FFMA", prefix("FFMA")},
	{"CALL", prefix("CALL")},
}

// counts are one function's figures: in all its code and in its
// innermost loops.
type counts struct {
	insts, loopInsts int
	loops            []int // instructions of each innermost loop
	all, inLoops     []int // by classes
}

func count(is []inst) counts {
	c := counts{insts: len(is), all: make([]int, len(classes)), inLoops: make([]int, len(classes))}
	loops := innermostLoops(is)
	for _, l := range loops {
		n := 0
		for _, in := range is {
			if in.addr >= l.from && in.addr <= l.to {
				n++
			}
		}
		c.loops = append(c.loops, n)
		c.loopInsts += n
	}
	for _, in := range is {
		inLoop := false
		for _, l := range loops {
			inLoop = inLoop || in.addr >= l.from && in.addr <= l.to
		}
		for k, cl := range classes {
			if cl.is(in) {
				c.all[k]++
				if inLoop {
					c.inLoops[k]++
				}
			}
		}
	}
	return c
}

// loopCell is how the loops column reads: "-" without loops, else each
// innermost loop's instruction count.
func (c counts) loopCell() string {
	if len(c.loops) == 0 {
		return "-"
	}
	s := make([]string, len(c.loops))
	for i, n := range c.loops {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, "+")
}

// classCell is "all/in innermost loops", or just "all" without loops.
func (c counts) classCell(k int) string {
	if len(c.loops) == 0 {
		return strconv.Itoa(c.all[k])
	}
	return fmt.Sprintf("%d/%d", c.all[k], c.inLoops[k])
}
