package cuda

import "testing"

// BenchmarkOwnerDo is the round trip of one call through the owner thread
// (no driver call): the floor of every backend method's cost. Measured on
// the H200 machine (a 16-core VM): about 20 µs, most of a small launch's
// 29 µs (bench/gpu-h200.md).
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
