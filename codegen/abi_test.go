package codegen_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestABITrapRecord checks the trap-record section of ABI.md, which host
// programs are written from, against internal/gpuabi, which the emitters and
// backends are built from: the hidden parameter's name, the record's size,
// each field's offset, type and name, and each code's name and message.
func TestABITrapRecord(t *testing.T) {
	b, err := os.ReadFile("ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	// The parameters table's hidden row names the parameter and the size.
	m := regexp.MustCompile("(?m)^\\| \\(hidden, last\\) \\| `\\.u64 (\\w+)`: address of a (\\d+)-byte trap record").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("ABI.md: no \"(hidden, last)\" row naming the trap parameter and the record's size")
	}
	if m[1] != gpuabi.TrapParamName {
		t.Errorf("ABI.md names the trap parameter %s, gpuabi %s", m[1], gpuabi.TrapParamName)
	}
	if m[2] != strconv.Itoa(gpuabi.TrapRecordSize) {
		t.Errorf("ABI.md says the trap record has %s bytes, gpuabi %d", m[2], gpuabi.TrapRecordSize)
	}

	sec := section(t, doc, "## The trap record")

	// The record's table: offset, type, field name.
	goType := map[string]string{"u32": "uint32", "u32[3]": "[3]uint32", "i64": "int64", "u64": "uint64"}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| (u32|u32\[3\]|i64|u64) \| (\w+)`).FindAllStringSubmatch(sec, -1)
	if len(rows) != len(gpuabi.TrapFields) {
		t.Fatalf("ABI.md's trap record has %d fields, gpuabi %d", len(rows), len(gpuabi.TrapFields))
	}
	end := 0
	for i, r := range rows {
		f := gpuabi.TrapFields[i]
		off, _ := strconv.Atoi(r[1])
		if off != f.Offset || goType[r[2]] != f.Type || r[3] != f.Name {
			t.Errorf("ABI.md's field %d is %s %s at %s; gpuabi: %s %s at %d", i, r[3], r[2], r[1], f.Name, f.Type, f.Offset)
		}
		end = f.Offset + f.Size
	}
	if end != gpuabi.TrapRecordSize {
		t.Errorf("gpuabi's fields end at %d, its record has %d bytes", end, gpuabi.TrapRecordSize)
	}

	// The codes' table: code, name, message with arg0 and arg1 in place of
	// the record's arguments.
	k := strings.Index(sec, "\n| code | name")
	if k < 0 {
		t.Fatal("ABI.md's trap record section has no table of codes (| code | name ...)")
	}
	codes := regexp.MustCompile(`(?m)^\| (\d+) \| ([^|]+) \| ([^|]+) \|$`).FindAllStringSubmatch(sec[k:], -1)
	if len(codes) != len(gpuabi.TrapCodes) {
		t.Fatalf("ABI.md lists %d trap codes, gpuabi %d", len(codes), len(gpuabi.TrapCodes))
	}
	const arg0, arg1 = -111111, -222222
	for i, r := range codes {
		c := gpuabi.TrapCodes[i]
		msg := c.Message(arg0, arg1)
		msg = strings.ReplaceAll(msg, strconv.Itoa(arg0), "arg0")
		msg = strings.ReplaceAll(msg, strconv.Itoa(arg1), "arg1")
		if r[1] != strconv.Itoa(int(c)) || r[2] != c.String() || r[3] != msg {
			t.Errorf("ABI.md: code %s %q reported as %q; gpuabi: code %d %q reported as %q", r[1], r[2], r[3], c, c.String(), msg)
		}
	}
}

// section returns the text of the Markdown section that begins with heading,
// up to the next heading of its level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("ABI.md has no section %q", heading)
	}
	rest := doc[i+len(heading)+2:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
