package kerngen

import "testing"

// TestSubnormal32 pins which mismatches a device that flushes float32
// subnormals may explain: a float32 operand or Go result that is
// subnormal, never an integer operand whose bits look like one.
func TestSubnormal32(t *testing.T) {
	f := Kernel{In: []string{"float32", "float32"}, Out: []string{"bool", "float32"}}
	i := Kernel{In: []string{"int32", "int32"}, Out: []string{"int32"}}
	for _, c := range []struct {
		k    Kernel
		row  [3]uint64
		slot int
		want uint64
		gap  bool
	}{
		{f, [3]uint64{0, 1}, 0, 0, true},                   // b is the smallest subnormal
		{f, [3]uint64{0x80000001, 0x3f800000}, 0, 0, true}, // a is -smallest
		{f, [3]uint64{0x3f800000, 0x40000000}, 1, 1, true}, // the result is subnormal
		{f, [3]uint64{0x3f800000, 0x40000000}, 1, 0x3f800000, false},
		{f, [3]uint64{0, 0}, 0, 0, false}, // zeros are not subnormal
		{i, [3]uint64{1, 1}, 0, 1, false},
	} {
		if got := c.k.Subnormal32(c.row, c.slot, c.want); got != c.gap {
			t.Errorf("%v row %#x slot %d want %#x: Subnormal32 = %v, want %v", c.k.In, c.row, c.slot, c.want, got, c.gap)
		}
	}
}
