package cuda

import (
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
)

// TestNonCoherentChoice: the entry point with non-coherent loads is chosen
// only when no other argument's buffer overlaps a read-only one; an
// aliased launch (the output is the input, or overlaps it) gets the
// coherent entry.
func TestNonCoherentChoice(t *testing.T) {
	in := [2]uintptr{0x1000, 0x2000}
	out := [2]uintptr{0x3000, 0x4000}
	for _, c := range []struct {
		name     string
		readOnly []int
		spans    [][2]uintptr
		want     bool
	}{
		{"distinct buffers", []int{1}, [][2]uintptr{{}, in, out}, true},
		{"output is the input", []int{1}, [][2]uintptr{{}, in, in}, false},
		{"output overlaps the input's end", []int{1}, [][2]uintptr{{}, in, {0x1ff0, 0x2ff0}}, false},
		{"output inside the input", []int{1}, [][2]uintptr{{}, in, {0x1100, 0x1200}}, false},
		{"adjacent buffers", []int{1}, [][2]uintptr{{}, in, {0x2000, 0x3000}}, true},
		{"two read-only arguments share a buffer", []int{0, 1}, [][2]uintptr{in, in, out}, true},
		{"empty output", []int{1}, [][2]uintptr{{}, in, {}}, true},
		{"read-only index out of range", []int{5}, [][2]uintptr{in, out}, false},
	} {
		if got := nonCoherent(c.readOnly, c.spans); got != c.want {
			t.Errorf("%s: nonCoherent = %v, want %v", c.name, got, c.want)
		}
	}
	// spans reads the buffers of slice arguments only.
	m := &memory{ptr: 0x1000, n: 4, size: 16, elem: reflect.TypeFor[float32]()}
	got := spans([]backend.Arg{{Value: reflect.ValueOf(2)}, {Mem: m}, {Mem: &memory{}}})
	want := [][2]uintptr{{}, {0x1000, 0x1010}, {}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spans = %v, want %v", got, want)
	}
}
