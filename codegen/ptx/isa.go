package ptx

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// The PTX ISA's type rules for every instruction form the emitter writes,
// from the syntax of each instruction in the ISA's "Instruction Set"
// chapter (and checked against ptxas: TestISATable's refusals,
// TestEveryOpAssembles' acceptances). An instruction is written as opcode.modifiers.types; the table
// maps the opcode with its modifiers (the form) to the type suffixes the
// ISA allows for it, so that the emitter can refuse, at build time, an
// instruction that ptxas and the driver would refuse with the whole
// module ("Instruction 'neg' applies only to signed numeric types").
//
// A row's form may hold alternatives in braces ("atom{,.global}.add"
// is atom.add and atom.global.add). types lists the legal suffixes; from,
// for the conversions (cvt's .dtype.atype), the legal source types, any of
// which goes with any of types. A form may have several rows; an
// instruction is legal when one of them allows its types. A row with no
// types is a form without a type suffix (bra, ret, bar.sync).
var isaRows = []struct{ form, types, from string }{
	// Integer and floating-point arithmetic.
	{"{add,sub}", ints + " " + floats, ""},
	{"{add,sub}.rn", floats, ""},
	{"mul.{lo,hi}", ints, ""},
	{"mul.wide", "s16 s32 u16 u32", ""},
	{"{mul,mul.rn}", floats, ""},
	{"div", ints, ""},
	{"div.rn", floats, ""},
	{"rem", ints, ""},
	{"{neg,abs}", "s16 s32 s64 " + floats, ""}, // signed only: no neg.u32
	{"{min,max}", ints + " " + floats, ""},
	{"fma.rn", floats, ""},
	{"{sqrt.rn,rcp.rn,copysign}", floats, ""},
	{"{clz,popc}", "b32 b64", ""},
	// Comparison and selection: eq and ne also compare bits; the
	// unordered and NaN tests are for floats only.
	{"setp.{eq,ne}", bits + " " + ints + " " + floats, ""},
	{"setp.{lt,le,gt,ge}", ints + " " + floats, ""},
	{"setp.{lo,ls,hi,hs}", "b16 b32 b64 u16 u32 u64", ""},
	{"setp.{equ,neu,ltu,leu,gtu,geu,num,nan}", floats, ""},
	{"selp", bits + " " + ints + " " + floats, ""},
	// Logic and shifts: shl is untyped, shr fills by type.
	{"{and,or,xor,not}", "pred " + bits, ""},
	{"shl", bits, ""},
	{"shr", bits + " " + ints, ""},
	// Data movement and conversion.
	{"mov", "pred " + bits + " " + ints + " " + floats, ""},
	{"{ld,ld.global,ld.shared,ld.local,ld.param,ld.global.nc}", mem, ""},
	{"ld.volatile{,.global,.shared}", mem, ""}, // the deadline poll's stop word
	{"{st,st.global,st.shared,st.local}", mem, ""},
	{"{cvta,cvta.to}.{global,shared,local}", "u32 u64", ""},
	{"cvt", cvtInts, cvtInts},                  // integer to integer: no rounding
	{"cvt", "f64", "f32"},                      // widening is exact
	{"cvt.{rn,rz,rm,rp}", floats, cvtInts},     // integer to float: rounding required
	{"cvt.{rn,rz,rm,rp}", "f32", "f64"},        // narrowing: rounding required
	{"cvt.{rni,rzi,rmi,rpi}", cvtInts, floats}, // float to integer: integer rounding required
	{"cvt.{rni,rzi,rmi,rpi}", "f32", "f32"},    // round to an integral value
	{"cvt.{rni,rzi,rmi,rpi}", "f64", "f64"},
	// Atomics on global, shared or generic addresses.
	{"atom{,.global,.shared}.{and,or,xor,exch,cas}", "b32 b64", ""},
	{"atom{,.global,.shared}.add", "u32 s32 u64 f32 f64", ""},
	{"atom{,.global,.shared}.{min,max}", "u32 s32 u64 s64", ""},
	// Control flow and synchronization.
	{"{bra,ret,exit,bar.sync,membar.gl}", "", ""},
}

// Type groups of the table.
const (
	bits    = "b16 b32 b64"
	ints    = "s16 s32 s64 u16 u32 u64"
	floats  = "f32 f64"
	cvtInts = "s8 s16 s32 s64 u8 u16 u32 u64"
	mem     = "b8 b16 b32 b64 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64"
)

// isaTable is isaRows indexed for lookup. It is built on first use, so
// that a process that never emits PTX (gpukvet run as a vet tool) does not
// pay for it at start-up.
type isaTable struct {
	// types are the fundamental type suffixes, which split an
	// instruction's name into its form and its types.
	types map[string]bool
	// forms maps a form to the rows that allow it.
	forms map[string][]isaRule
}

type isaRule struct{ types, from map[string]bool }

var theISA = sync.OnceValue(func() isaTable {
	t := isaTable{types: set("pred " + mem + " f16"), forms: map[string][]isaRule{}}
	for _, r := range isaRows {
		rule := isaRule{types: set(r.types), from: set(r.from)}
		for _, form := range expand(r.form) {
			t.forms[form] = append(t.forms[form], rule)
		}
	}
	return t
})

func set(list string) map[string]bool {
	s := map[string]bool{}
	for _, t := range strings.Fields(list) {
		s[t] = true
	}
	return s
}

// expand returns the forms a pattern with brace alternatives stands for.
func expand(pattern string) []string {
	open := strings.IndexByte(pattern, '{')
	if open < 0 {
		return []string{pattern}
	}
	end := open + strings.IndexByte(pattern[open:], '}')
	var out []string
	for _, alt := range strings.Split(pattern[open+1:end], ",") {
		out = append(out, expand(pattern[:open]+alt+pattern[end+1:])...)
	}
	return out
}

// checkInstruction reports an instruction (one line of an entry's body,
// without the semicolon) whose types the ISA does not allow, or whose form
// the table does not know. Labels and comments pass.
func checkInstruction(line string) error {
	return checkName(instructionName(line))
}

// instructionName is the name (opcode.modifiers.types) of the instruction
// on a line of an entry's body, "" for a label or a comment: all that
// checkName needs of it.
func instructionName(line string) string {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "//") || strings.HasSuffix(line, ":") {
		return ""
	}
	if strings.HasPrefix(line, "@") { // a guard predicate
		_, line, _ = strings.Cut(line, " ")
	}
	name, _, _ := strings.Cut(line, " ")
	return name
}

// checkName is checkInstruction for an instruction's name ("" passes).
func checkName(name string) error {
	if name == "" {
		return nil
	}
	table := theISA()
	var mods, types []string
	for _, part := range strings.Split(name, ".") {
		if table.types[part] {
			types = append(types, part)
		} else {
			mods = append(mods, part)
		}
	}
	form := strings.Join(mods, ".")
	rules, ok := table.forms[form]
	if !ok {
		return fmt.Errorf("%s: the PTX table (codegen/ptx/isa.go) has no instruction form %s", name, form)
	}
	for _, r := range rules {
		if r.allows(types) {
			return nil
		}
	}
	return fmt.Errorf("%s: the PTX ISA does not allow %s with type %s (it allows %s)", name, form, strings.Join(types, "."), allowed(rules))
}

func (r isaRule) allows(types []string) bool {
	switch len(types) {
	case 0:
		return len(r.types) == 0
	case 1:
		return r.types[types[0]] && len(r.from) == 0
	case 2:
		return r.types[types[0]] && r.from[types[1]]
	}
	return false
}

// allowed lists what a form's rules allow, for the error.
func allowed(rules []isaRule) string {
	var out []string
	for _, r := range rules {
		out = append(out, strings.Join(slices.Sorted(maps.Keys(r.types)), " ")+fromText(r))
	}
	return strings.Join(out, "; ")
}

func fromText(r isaRule) string {
	if len(r.from) == 0 {
		return ""
	}
	return " from " + strings.Join(slices.Sorted(maps.Keys(r.from)), " ")
}

// Check checks every instruction of a PTX module's text against the ISA
// table, as Emit does for what it writes; the error names the entry and
// the line.
func Check(text string) error {
	entry := ""
	for i, line := range strings.Split(text, "\n") {
		if name, ok := entryName(line); ok {
			entry = name
			continue
		}
		if !strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "\t.") {
			continue // declarations and directives
		}
		if err := checkInstruction(strings.TrimSuffix(line, ";")); err != nil {
			return fmt.Errorf("ptx line %d (entry %s): %w", i+1, entry, err)
		}
	}
	return nil
}

// entryName reports the entry point a line of a module declares.
func entryName(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, ".visible .entry ")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(rest, "(")
	return name, true
}
