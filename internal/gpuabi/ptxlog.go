package gpuabi

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// PTX position comments: where the Go line changes, the PTX emitter writes
// the comment PTXPosition(file:line) in an entry's body, and
// ExplainPTXLog traces the PTX lines a ptxas log cites back to them.

// PTXPosition is the line of an entry's body that says the instructions
// after it come from Go line pos ("file:line").
func PTXPosition(pos string) string { return "\t// " + pos }

// ptxLogLine matches a PTX line number in a log of ptxas or of the
// driver's JIT compiler ("ptxas application ptx input, line 42; error   :
// ...", "ptxas k.ptx, line 42; error ...").
var ptxLogLine = regexp.MustCompile(`line (\d+); (?:error|warning|fatal)`)

// posComment matches a PTXPosition line.
var posComment = regexp.MustCompile(`^\t// (\S+:\d+)$`)

// ExplainPTXLog returns a ptxas or JIT error log of module ptx with, after
// each line of it that cites a PTX line, where that line came from: the
// entry point that holds it and the Go line of the nearest position comment
// above it in that entry. The PTX emitter's own ISA check should leave
// nothing for ptxas or a driver to refuse; this names the kernel and line
// when one refuses a module anyway.
func ExplainPTXLog(ptx, log string) string {
	lines := strings.Split(ptx, "\n")
	var sb strings.Builder
	for _, l := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		sb.WriteString(l)
		sb.WriteString("\n")
		m := ptxLogLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 || n > len(lines) {
			continue
		}
		if where := ptxOrigin(lines, n); where != "" {
			fmt.Fprintf(&sb, "\t(PTX line %d is %s)\n", n, where)
		}
	}
	return strings.TrimRight(sb.String(), "\n")
}

// ptxOrigin describes where line n (1-based) of a module's lines came
// from: "entry E, from Go line F" or less where the module says less.
func ptxOrigin(lines []string, n int) string {
	goLine := ""
	for i := n - 1; i >= 0; i-- {
		if m := posComment.FindStringSubmatch(lines[i]); m != nil && goLine == "" {
			goLine = m[1]
		}
		if name, ok := strings.CutPrefix(lines[i], ".visible .entry "); ok {
			name, _, _ = strings.Cut(name, "(")
			if goLine == "" {
				return "in entry " + name
			}
			return fmt.Sprintf("in entry %s, from Go line %s", name, goLine)
		}
	}
	return ""
}
