package twinharness

// The same kernels on two backends of package device: each case launched
// through package device (so each backend picks its entry points as it
// does for users: launch-facts variants, non-coherent loads) on cuda and
// on vulkan in one process, each result checked against the cpu backend
// at the small size, then timed at the large size with the host clock
// around batches of launches and a Sync (device/vulkan has no timestamp
// queries to time a dispatch on the GPU with). The table gives the median
// time per launch on each backend and the ratio vulkan/cuda; RunTwins
// gives cuda against nvcc, so vulkan against nvcc is the product of the
// two.
//
// It runs only when GPUKVET_BACKENDS_BENCH is set (the large sizes take
// minutes on a software Vulkan), and needs both backends;
// GPUKVET_BACKENDS=a,b names two others (the ratio is b/a),
// GPUKVET_BACKENDS_SMALL=1 times the small sizes (a check of the harness
// on a machine without a GPU) and GPUKVET_BACKENDS_OUT names a file for
// the table.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
)

// RunBackends checks and times every case of cases on two backends (see
// above); title heads the table.
func RunBackends(t *testing.T, title string, cases Cases) {
	if os.Getenv("GPUKVET_BACKENDS_BENCH") == "" {
		t.Skip("set GPUKVET_BACKENDS_BENCH=1 to time the kernels on the cuda and vulkan backends")
	}
	names := []string{"cuda", "vulkan"}
	if e := os.Getenv("GPUKVET_BACKENDS"); e != "" {
		names = strings.Split(e, ",")
		if len(names) != 2 {
			t.Fatalf("GPUKVET_BACKENDS=%q: want two backends, a,b", e)
		}
	}
	devs := map[string]*device.Device{}
	for _, n := range names {
		d, err := device.OpenBackend(n)
		if err != nil {
			t.Fatalf("opening the %s backend: %v", n, err)
		}
		defer d.Close()
		devs[n] = d
	}
	CheckOn(t, cases, devs[names[0]], devs[names[1]])
	var sb strings.Builder
	a, b := names[0], names[1]
	fmt.Fprintf(&sb, "%shost clock: median of 15 batches of 10 launches and a Sync, after 2 warm-up launches\n\n", header(title))
	fmt.Fprintf(&sb, "| kernel | %s µs | %s µs | %s / %s |\n| --- | --- | --- | --- |\n", a, b, b, a)
	logSum, count := 0.0, 0
	for _, c := range cases(os.Getenv("GPUKVET_BACKENDS_SMALL") == "") {
		ta, tb := timeLaunches(t, devs[a], c), timeLaunches(t, devs[b], c)
		ratio := tb / ta
		logSum += math.Log(ratio)
		count++
		fmt.Fprintf(&sb, "| %s | %.1f | %.1f | %.3f |\n", c.Name, ta, tb, ratio)
	}
	fmt.Fprintf(&sb, "\ngeomean %s/%s over %d kernels: %.3f\n", b, a, count, math.Exp(logSum/float64(count)))
	t.Log("\n" + sb.String())
	if out := os.Getenv("GPUKVET_BACKENDS_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// CheckOn runs every case of cases at its small size on each of devs and
// compares the outputs with the cpu backend's.
func CheckOn(t *testing.T, cases Cases, devs ...*device.Device) {
	for _, c := range cases(false) {
		want := CPUResult(t, c)
		for _, d := range devs {
			got := LaunchOnce(t, d, c)
			for i := range want {
				if err := Compare(got[i], want[i], c.Tol); err != nil {
					t.Errorf("%s on %s: output %d: %v", c.Name, d.Backend(), c.Outs[i], err)
				}
			}
		}
	}
}

// timeLaunches returns the median time per launch of c on d in µs: 15
// batches of 10 launches and a Sync, after two warm-up launches.
func timeLaunches(t *testing.T, d *device.Device, c Case) float64 {
	args, bufs := deviceArgs(t, d, c, true)
	defer freeAll(bufs)
	launch := func(n int) {
		for range n {
			if err := d.Launch(c.Fn, c.Grid, c.Block, args...); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
		}
		if err := d.Sync(); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	launch(2)
	var per []float64
	for range 15 {
		start := time.Now()
		launch(10)
		per = append(per, float64(time.Since(start).Nanoseconds())/1e4)
	}
	slices.Sort(per)
	return per[len(per)/2]
}
