package device_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
)

// TestBadInputs tries the bad inputs of device/BADINPUTS.md on the cpu
// backend and checks that each returns an error (no panic, no hang);
// GPUKVET_BADINPUTS_OUT=FILE writes the table of errors there.
func TestBadInputs(t *testing.T) {
	d, err := device.OpenBackend("cpu", device.WithTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	xs := upload(t, d, make([]int32, 4))
	other := openCPU(t)
	foreign := upload(t, other, make([]int32, 4))
	freed, _ := device.Alloc[int32](d, 4)
	freed.Free()
	closed, _ := device.OpenBackend("cpu")
	cbuf, _ := device.Alloc[int32](closed, 4)
	closed.Close()
	var nilDev *device.Device
	var nilBuf *device.Buffer[int32]
	one := dim(1, 1, 1)
	sync := func(err error) error {
		if err != nil {
			return err
		}
		return d.Sync()
	}
	second := func(_ any, err error) error { return err }
	cases := []struct {
		what string
		run  func() error
	}{
		{"grid of (2^31−1)×1024 threads", func() error { return d.Launch(addOne, dim(1<<31-1, 1, 1), dim(1024, 1, 1), xs) }},
		{"grid X of 2^31 (above CUDA's limit)", func() error { return d.Launch(addOne, dim(1<<31, 1, 1), one, xs) }},
		{"block of 2048 threads", func() error { return d.Launch(addOne, one, dim(2048, 1, 1), xs) }},
		{"grid with a 0 dimension", func() error { return d.Launch(addOne, dim(0, 1, 1), one, xs) }},
		{"kernel looping forever (calls BlockDim in its loop), Sync under GPUKVET_TIMEOUT=1s", func() error { return sync(d.Launch(spin, one, dim(32, 1, 1), xs)) }},
		{"the same, Download with a 100ms context", func() error {
			if err := d.Launch(spin, one, one, xs); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			return second(xs.DownloadContext(ctx))
		}},
		{"kernel with unbounded recursion (no generated code)", func() error { return d.Launch(recurse, one, one, xs) }},
		{"kernel with select{} (no generated code)", func() error { return d.Launch(selects, one, one, xs) }},
		{"kernel with defer and a closure (no generated code)", func() error { return d.Launch(defers, one, one, xs) }},
		{"Alloc of 2^50 float64 (8 PiB)", func() error { return second(device.Alloc[float64](d, 1<<50)) }},
		{"Alloc of 2^62 float64 (overflows)", func() error { return second(device.Alloc[float64](d, 1<<62)) }},
		{"Alloc of -1 elements", func() error { return second(device.Alloc[float64](d, -1)) }},
		{"Alloc of a string buffer", func() error { return second(device.Alloc[string](d, 1)) }},
		{"Sync of a nil *Device", func() error { return nilDev.Sync() }},
		{"Close of a nil *Device", func() error { return nilDev.Close() }},
		{"Launch on a nil *Device", func() error { return nilDev.Launch(addOne, one, one, xs) }},
		{"Alloc on a nil *Device", func() error { return second(device.Alloc[int32](nilDev, 1)) }},
		{"Alloc on a zero device.Device{} (not from Open)", func() error { return second(device.Alloc[int32](&device.Device{}, 1)) }},
		{"Close of a zero device.Device{}", func() error { return new(device.Device).Close() }},
		{"Sync of a closed device", func() error { return closed.Sync() }},
		{"Close of a closed device", func() error { return closed.Close() }},
		{"Launch on a closed device", func() error { return closed.Launch(addOne, one, one, cbuf) }},
		{"Download of a buffer of a closed device", func() error { return second(cbuf.Download()) }},
		{"Download of a nil *Buffer", func() error { return second(nilBuf.Download()) }},
		{"Free of a nil *Buffer", func() error { return nilBuf.Free() }},
		{"Download of a zero Buffer (not from Alloc)", func() error { return second(new(device.Buffer[int32]).Download()) }},
		{"Free twice", func() error { return freed.Free() }},
		{"Launch with a freed buffer", func() error { return d.Launch(addOne, one, one, freed) }},
		{"Launch with another device's buffer", func() error { return d.Launch(addOne, one, one, foreign) }},
		{"Launch with a host slice", func() error { return d.Launch(addOne, one, one, []int32{1}) }},
		{"Launch with too few arguments", func() error { return d.Launch(addOne, one, one) }},
		{"Launch of a closure", func() error { return d.Launch(func() {}, one, one) }},
		{"Launch of a non-function", func() error { return d.Launch(3, one, one) }},
	}
	var table strings.Builder
	table.WriteString("| bad input | error |\n|---|---|\n")
	for _, c := range cases {
		err := within(t, c.run)
		if err == nil {
			t.Errorf("%s: no error", c.what)
			continue
		}
		msg := strings.ReplaceAll(err.Error(), "|", `\|`)
		if wd, _ := os.Getwd(); wd != "" {
			msg = strings.ReplaceAll(msg, wd+"/", "")
		}
		fmt.Fprintf(&table, "| %s | %s |\n", c.what, strings.ReplaceAll(msg, "\n", " "))
	}
	t.Log("\n" + table.String())
	if path := os.Getenv("GPUKVET_BADINPUTS_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
