package device_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
)

// TestErrorKinds checks that errors.Is tells apart a trap and a passed
// deadline (TestUnusableReceivers and TestLaunchErrors check the other
// kinds), and that no error is of a kind it is not.
func TestErrorKinds(t *testing.T) {
	d := openCPU(t)
	out := upload(t, d, make([]int32, 64))
	if err := d.Launch(outOfRange, dim(2, 1, 1), dim(32, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	trap := d.Sync()
	if !errors.Is(trap, device.ErrTrap) || errors.Is(trap, device.ErrTimeout) || errors.Is(trap, device.ErrLaunch) {
		t.Errorf("trap %v: want errors.Is ErrTrap only", trap)
	}

	if err := d.Launch(spin, dim(1, 1, 1), dim(1, 1, 1), out); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	late := d.SyncContext(ctx)
	if !errors.Is(late, device.ErrTimeout) || !errors.Is(late, context.DeadlineExceeded) || errors.Is(late, device.ErrTrap) {
		t.Errorf("deadline %v: want errors.Is ErrTimeout and context.DeadlineExceeded only", late)
	}
	for _, kind := range []error{device.ErrInvalid, device.ErrClosed, device.ErrFreed} {
		if errors.Is(trap, kind) || errors.Is(late, kind) {
			t.Errorf("errors.Is(%v or %v, %v) is true", trap, late, kind)
		}
	}
}
