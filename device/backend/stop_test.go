package backend

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestNotStopped: a GPU backend's error for launches it could not stop
// names the last kernel launched (the cuda backend named none), says the
// device is unusable, and is an ErrTimeout with the context's error.
func TestNotStopped(t *testing.T) {
	launched := []*Kernel{{Name: "p.First"}, {Name: "p.Last"}}
	for _, te := range []*TimeoutError{
		NotStopped("cuda", launched, context.DeadlineExceeded, "could not set the kernels' stop words (oops)"),
		StopGraceExpired("vulkan", launched, context.DeadlineExceeded),
	} {
		msg := te.Error()
		if te.Stopped || te.Kernel != "p.Last" || !strings.Contains(msg, "the device is unusable") ||
			!errors.Is(te, ErrTimeout) || !errors.Is(te, context.DeadlineExceeded) {
			t.Errorf("%q (Stopped %v): want kernel p.Last, not stopped, the device unusable", msg, te.Stopped)
		}
	}
	if te := StopGraceExpired("cuda", nil, context.Canceled); te.Kernel != "(none launched)" {
		t.Errorf("no launches: kernel %q", te.Kernel)
	}
}
