package cuda

import (
	"testing"
	"time"
)

// BenchmarkOwnerDo is the round trip of one call through the owner thread
// (no driver call): the floor of every backend method that waits for the
// driver. Measured on the H200 machine (a 16-core VM): about 20 µs, which is
// why launches are queued without waiting (bench/gpu-h200.md).
func BenchmarkOwnerDo(b *testing.B) {
	o, err := startOwner(func() error { return nil })
	if err != nil {
		b.Fatal(err)
	}
	defer o.stop()
	for range b.N {
		o.do(func() error { return nil })
	}
}

func TestOwnerStop(t *testing.T) {
	o, err := startOwner(func() error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ran := false
	if err := o.do(func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("do: %v, ran %v", err, ran)
	}
	o.stop()
	if err := o.do(func() error { return nil }); err != errClosed {
		t.Fatalf("do after stop: %v, want errClosed", err)
	}
}

// TestPollAfter pins the backoff of a wait with a context: short waits are
// looked at often (a Sync of a 100 µs batch must not take 10 ms), long ones
// at most every waitSlice.
func TestPollAfter(t *testing.T) {
	for _, c := range []struct{ waited, want time.Duration }{
		{0, minPoll},
		{800 * time.Microsecond, 100 * time.Microsecond},
		{time.Second, waitSlice},
	} {
		if got := pollAfter(c.waited); got != c.want {
			t.Errorf("pollAfter(%v) = %v, want %v", c.waited, got, c.want)
		}
	}
}
