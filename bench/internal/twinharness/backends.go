package twinharness

// The same kernels on two backends of package device: each case launched
// through package device (so each backend picks its entry points as it
// does for users: launch-facts variants, non-coherent loads) on cuda and
// on vulkan in one process, each result checked against the cpu backend
// at the small size, then timed at the large size twice: with the host
// clock around batches of launches and a Sync, and on the GPU around the
// same batches where the backend can (cuda: CUDA events before the first
// launch and after the last, device/cuda's Time; vulkan: timestamps the
// GPU writes before and after each dispatch, device/vulkan's Time, which
// gives both the span from the first to the last, comparable with the
// events, and the sum of the dispatches' own times, without the gaps
// between them). The table gives the median time per launch of each and
// the ratios b/a; RunTwins gives cuda against nvcc, so vulkan against
// nvcc is the product of the two.
//
// It runs only when GPUKVET_BACKENDS_BENCH is set (the large sizes take
// minutes on a software Vulkan), and needs both backends;
// GPUKVET_BACKENDS=a,b names two others (the ratio is b/a),
// GPUKVET_BACKENDS_SMALL=1 times the small sizes (a check of the harness
// on a machine without a GPU), GPUKVET_BACKENDS_ONCE=1 launches each case
// once at its timing size instead of timing it (so that the pipelines the
// timing would run are created, for GPUKVET_VK_PIPELINE_STATS) and
// GPUKVET_BACKENDS_OUT names a file for the table.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/cuda"
	"github.com/gpukvet/gpukvet/device/vulkan"
)

// rounds and reps: each time is the median of rounds batches of reps
// launches, after a warm-up (RunTwins' and RunBackends').
const rounds, reps = 15, 10

// timedDevice is a Device with its backend's GPU timer, if it has one.
type timedDevice struct {
	*device.Device
	// gpuTime runs f (which launches reps kernels) and returns the GPU
	// time of its span and of its dispatches alone (0 where the timer
	// cannot tell them apart); nil where the backend has no GPU timer.
	gpuTime func(f func() error) (span, kernels time.Duration, err error)
	// method names the GPU timer in the table.
	method string
}

// openTimed opens the backend name, keeping its GPU timer: cuda's and
// vulkan's are opened as their concrete types and wrapped with
// device.New.
func openTimed(name string) (*timedDevice, error) {
	switch name {
	case "cuda":
		be, err := cuda.OpenBackend()
		if err != nil {
			return nil, err
		}
		d, err := device.New(be)
		return &timedDevice{Device: d, method: "CUDA events", gpuTime: func(f func() error) (time.Duration, time.Duration, error) {
			span, err := be.Time(f)
			return span, 0, err
		}}, err
	case "vulkan":
		be, err := vulkan.OpenBackend()
		if err != nil {
			return nil, err
		}
		d, err := device.New(be)
		return &timedDevice{Device: d, method: "Vulkan timestamps", gpuTime: func(f func() error) (time.Duration, time.Duration, error) {
			tm, err := be.Time(f)
			return tm.Span, tm.Total(), err
		}}, err
	}
	d, err := device.OpenBackend(name)
	return &timedDevice{Device: d}, err
}

// times is one kernel's median times per launch on one backend, in µs
// (0 where not measured).
type times struct{ host, span, kernels float64 }

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
	devs := map[string]*timedDevice{}
	for _, n := range names {
		d, err := openTimed(n)
		if err != nil {
			t.Fatalf("opening the %s backend: %v", n, err)
		}
		defer d.Close()
		devs[n] = d
	}
	a, b := devs[names[0]], devs[names[1]]
	CheckOn(t, cases, a.Device, b.Device)
	if os.Getenv("GPUKVET_BACKENDS_ONCE") != "" {
		for _, c := range cases(os.Getenv("GPUKVET_BACKENDS_SMALL") == "") {
			LaunchOnce(t, a.Device, c)
			LaunchOnce(t, b.Device, c)
		}
		return
	}
	var rows []string
	var hostLogs, gpuLogs []float64
	for _, c := range cases(os.Getenv("GPUKVET_BACKENDS_SMALL") == "") {
		ta, tb := timeLaunches(t, a, c), timeLaunches(t, b, c)
		hostLogs = append(hostLogs, math.Log(tb.host/ta.host))
		gpuRatio := "—"
		if ta.span > 0 && tb.span > 0 {
			gpuLogs = append(gpuLogs, math.Log(tb.span/ta.span))
			gpuRatio = fmt.Sprintf("%.3f", tb.span/ta.span)
		}
		rows = append(rows, fmt.Sprintf("| %s | %.1f | %.1f | %.3f | %s | %s | %s | %s | %s |", c.Name, ta.host, tb.host, tb.host/ta.host,
			cell(ta.span), cell(tb.span), gpuRatio, cell(ta.kernels), cell(tb.kernels)))
	}
	table := backendsTable(title, names, a, b, rows, hostLogs, gpuLogs)
	t.Log("\n" + table)
	if out := os.Getenv("GPUKVET_BACKENDS_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// backendsTable is RunBackends' results: the heading saying which method
// timed which column, the rows, and the geomeans.
func backendsTable(title string, names []string, a, b *timedDevice, rows []string, hostLogs, gpuLogs []float64) string {
	var sb strings.Builder
	na, nb := names[0], names[1]
	fmt.Fprintf(&sb, "%sEach time is per launch, the median of %d batches of %d launches after a warm-up.\n", header(title), rounds, reps)
	fmt.Fprintf(&sb, "host: host clock around each batch and a Sync. GPU span: %s on %s, %s on %s, from before the batch's first kernel to after its last.\n",
		method(a), na, method(b), nb)
	fmt.Fprintf(&sb, "kernels only: the sum of each dispatch's own GPU time (timestamps before and after each), where the timer gives it.\n\n")
	fmt.Fprintf(&sb, "| kernel | %s host µs | %s host µs | %s / %s host | %s GPU span µs | %s GPU span µs | %s / %s GPU | %s kernels only µs | %s kernels only µs |\n",
		na, nb, nb, na, na, nb, nb, na, na, nb)
	sb.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		sb.WriteString(r + "\n")
	}
	fmt.Fprintf(&sb, "\ngeomean %s/%s over %d kernels: %.3f (host clock)", nb, na, len(hostLogs), geomean(hostLogs))
	if len(gpuLogs) > 0 {
		fmt.Fprintf(&sb, ", %.3f (GPU span, %d kernels)", geomean(gpuLogs), len(gpuLogs))
	}
	sb.WriteString("\n")
	return sb.String()
}

func method(d *timedDevice) string {
	if d.gpuTime == nil {
		return "no GPU timer"
	}
	return d.method
}

func geomean(logs []float64) float64 {
	s := 0.0
	for _, l := range logs {
		s += l
	}
	return math.Exp(s / float64(len(logs)))
}

// cell is a time in µs, or a dash where it was not measured.
func cell(us float64) string {
	if us == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", us)
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

// timeLaunches returns the median times per launch of c on d: batches of
// reps launches and a Sync timed with the host clock, then, where d has a
// GPU timer, batches timed with it.
func timeLaunches(t *testing.T, d *timedDevice, c Case) times {
	args, bufs := deviceArgs(t, d.Device, c, true)
	defer freeAll(bufs)
	launch := func(n int) error {
		for range n {
			if err := d.Launch(c.Fn, c.Grid, c.Block, args...); err != nil {
				return err
			}
		}
		return nil
	}
	check := func(err error) {
		if err == nil {
			err = d.Sync()
		}
		if err != nil {
			t.Fatalf("%s on %s: %v", c.Name, d.Backend(), err)
		}
	}
	check(launch(2))
	var host, span, kernels []float64
	for range rounds {
		start := time.Now()
		check(launch(reps))
		host = append(host, perLaunch(time.Since(start)))
	}
	if d.gpuTime != nil {
		for range rounds {
			s, k, err := d.gpuTime(func() error { return launch(reps) })
			check(err)
			span, kernels = append(span, perLaunch(s)), append(kernels, perLaunch(k))
		}
	}
	return times{host: median(host), span: median(span), kernels: median(kernels)}
}

// perLaunch is a batch's time per launch in µs.
func perLaunch(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / reps }

// median of xs; 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
