package cuda

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// jitLine matches a PTX line number in the driver's JIT error log
// ("ptxas application ptx input, line 42; error   : ...").
var jitLine = regexp.MustCompile(`line (\d+); (?:error|warning|fatal)`)

// posComment matches the position comments the codegen writes in an
// entry's body where the Go line changes ("\t// pkg/k.go:15").
var posComment = regexp.MustCompile(`^\t// (\S+:\d+)$`)

// explainJITLog returns the driver's JIT error log with, after each line
// of it that cites a PTX line, where that line came from: the entry point
// that holds it and the Go line of the nearest position comment above it
// in that entry. The codegen's own ISA check (codegen/ptx) should leave
// nothing for the driver to refuse; this names the kernel and line when a
// driver refuses a module anyway.
func explainJITLog(ptx, log string) string {
	lines := strings.Split(ptx, "\n")
	var sb strings.Builder
	for _, l := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		sb.WriteString(l)
		sb.WriteString("\n")
		m := jitLine.FindStringSubmatch(l)
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
