package gpuabi

import "testing"

func TestLayoutPush(t *testing.T) {
	// func(t gpu.Thread, ok bool, a float32, x []float32, s struct{a int8; b int64}, n int)
	l := LayoutPush([]Param{
		{Kind: Scalar, Size: 1, Align: 1},
		{Kind: Scalar, Size: 4, Align: 4},
		{Kind: Slice},
		{Kind: Struct, Size: 16, Align: 8},
		{Kind: Scalar, Size: 8, Align: 8},
	})
	want := []Slot{{0, 4}, {4, 4}, {8, 8}, {16, 8}, {24, 16}, {40, 8}}
	if len(l.Slots) != len(want) {
		t.Fatalf("slots = %v, want %v", l.Slots, want)
	}
	for i := range want {
		if l.Slots[i] != want[i] {
			t.Errorf("slot %d = %v, want %v", i, l.Slots[i], want[i])
		}
	}
	if l.Trap != (Slot{48, 8}) || l.Size != 56 {
		t.Errorf("trap %v size %d, want {48 8} 56", l.Trap, l.Size)
	}
	if got := l.Entry[2]; len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("entry of the slice = %v, want [2 3]", got)
	}
}

func TestTrapMessages(t *testing.T) {
	if got := TrapIndex.Message(5, 4); got != "index out of range [5] with length 4" {
		t.Errorf("got %q", got)
	}
	if got := TrapCode(99).Message(0, 0); got != "trap code 99" {
		t.Errorf("got %q", got)
	}
}

func TestLayoutPushIndirect(t *testing.T) {
	// 8 slices and the trap address: 136 bytes, over Vulkan's 128.
	var ps []Param
	for range 8 {
		ps = append(ps, Param{Kind: Slice})
	}
	l := LayoutPush(ps)
	if l.Size != 136 || !l.Indirect || l.PushSize != 8 {
		t.Errorf("8 slices: size %d indirect %v push %d, want 136 true 8", l.Size, l.Indirect, l.PushSize)
	}
	// 7 slices: 120 bytes, in push constants.
	l = LayoutPush(ps[:7])
	if l.Size != 120 || l.Indirect || l.PushSize != 120 {
		t.Errorf("7 slices: size %d indirect %v push %d, want 120 false 120", l.Size, l.Indirect, l.PushSize)
	}
}
