package scan

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/examples/internal/testdevice"
)

func TestScan(t *testing.T) {
	d := testdevice.Open(t)
	for _, n := range []int{1, 200, 256, 257, 5000, 70_000} {
		in := make([]int32, n)
		for i := range in {
			in[i] = int32(i%11) - 3
		}
		b, err := device.Upload(d, in)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Free()
		if err := Scan(d, b); err != nil {
			t.Fatal(err)
		}
		got, err := b.Download()
		if err != nil {
			t.Fatal(err)
		}
		var sum int32
		for i, v := range in {
			sum += v
			if got[i] != sum {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, got[i], sum)
			}
		}
	}
}
