package targets

import (
	"strings"
	"testing"
)

func TestCheckShapes(t *testing.T) {
	for _, tc := range []struct {
		block, grid bool
		shape       [3]int
		want        string // "" if it fits
	}{
		{true, false, [3]int{1024, 1, 1}, ""},
		{true, false, [3]int{1025, 1, 1}, "block extent 1025 in X is more than the 1024 of target ptx"},
		{true, false, [3]int{1, 1024, 1}, ""},
		{true, false, [3]int{1, 1, 64}, ""},
		{true, false, [3]int{1, 1, 65}, "block extent 65 in Z is more than the 64"},
		{true, false, [3]int{32, 32, 1}, ""},
		{true, false, [3]int{32, 32, 2}, "2048 threads per block is more than the 1024"},
		{false, true, [3]int{1<<31 - 1, 65535, 65535}, ""},
		{false, true, [3]int{1 << 31, 1, 1}, "grid extent 2147483648 in X is more than the 2147483647"},
		{false, true, [3]int{1, 1, 65536}, "grid extent 65536 in Z is more than the 65535"},
	} {
		var err error
		if tc.block {
			err = Static.CheckBlock(tc.shape)
		} else {
			err = Static.CheckGrid(tc.shape)
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v, want it to fit", tc.shape, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: %v, want %q", tc.shape, err, tc.want)
		}
	}
}

func TestParamBytes(t *testing.T) {
	// A u8, then a u64 aligned to 8, then a 12-byte struct aligned to 4.
	if got := ParamBytes([]Param{{1, 1}, {8, 8}, {12, 4}}); got != 28 {
		t.Errorf("ParamBytes = %d, want 28", got)
	}
}
