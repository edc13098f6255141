// Package differential runs every example and the kernels of
// testdata/differential/kernels on the cpu backend (the reference: Go
// itself) and on a GPU backend, and compares the results: integers and bools
// exactly, floats within a stated bound in units in the last place (0 means
// bit-identical), traps by their Go error and source line.
//
// Without a GPU the cpu half still runs (each case's own checks) and the
// comparisons skip. Run it with
//
//	go test ./testdata/differential
//
// GPUKVET_DIFF_BACKEND names the GPU backends, comma-separated (default
// "cuda,vulkan": each that opens here is compared with the cpu; CI has
// vulkan on lavapipe); GPUKVET_DIFF_RESULTS=FILE writes a Markdown table of
// the results, with the commit from GPUKVET_COMMIT, as committed in
// RESULTS-h200.md (with several backends, each gets FILE with "-<backend>"
// before its extension).
//
// A GPU launch that does not finish within GPUKVET_DIFF_TIMEOUT (a Go
// duration, default 2m) fails its case, and the remaining cases run on a
// freshly opened device: a hang is a failure, never a stuck test run.
package differential

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/vulkan"
)

type row struct {
	name, status, detail string
	bound, maxULP        int64
	trap                 string
	gpuTime              time.Duration
}

func TestDifferential(t *testing.T) {
	cpu, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	names := strings.Split(os.Getenv("GPUKVET_DIFF_BACKEND"), ",")
	if os.Getenv("GPUKVET_DIFF_BACKEND") == "" {
		names = []string{"cuda", "vulkan"}
	}
	timeout := 2 * time.Minute
	if s := os.Getenv("GPUKVET_DIFF_TIMEOUT"); s != "" {
		if timeout, err = time.ParseDuration(s); err != nil {
			t.Fatalf("GPUKVET_DIFF_TIMEOUT: %v", err)
		}
	}
	type gpuBackend struct {
		name string
		dev  *device.Device
	}
	var gpus []gpuBackend
	for _, name := range names {
		d, err := device.OpenBackend(strings.TrimSpace(name))
		if err != nil {
			t.Logf("no %s device, its comparisons skip: %v", name, err)
			continue
		}
		gpus = append(gpus, gpuBackend{name, d})
		if strings.TrimSpace(name) == "vulkan" {
			readVulkanDevice()
		}
	}
	if len(gpus) == 0 {
		gpus = []gpuBackend{{names[0], nil}} // the cpu half still runs
	}
	cases := append(kernelCases(), exampleCases()...)
	for _, g := range gpus {
		t.Run(g.name, func(t *testing.T) {
			rows := runCases(t, cpu, g.name, g.dev, cases, timeout)
			if path := os.Getenv("GPUKVET_DIFF_RESULTS"); path != "" {
				if len(gpus) > 1 {
					ext := filepath.Ext(path)
					path = strings.TrimSuffix(path, ext) + "-" + g.name + ext
				}
				if err := writeResults(path, g.name, g.dev, rows); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// runCases runs every case on the cpu and on gpuDev (nil: none, the
// comparisons skip) and returns a row per case.
func runCases(t *testing.T, cpu *device.Device, backend string, gpuDev *device.Device, cases []*tcase, timeout time.Duration) []row {
	// A device on which a launch hung is never closed (the hung launch
	// holds it); the process's exit releases it. hungAt names the case after
	// which no device could be opened again.
	hungAt := ""
	defer func() {
		if gpuDev != nil && hungAt == "" {
			gpuDev.Close()
		}
	}()
	var rows []row
	for _, c := range cases {
		rw := row{name: c.name, bound: c.ulp}
		for _, b := range c.argULP {
			rw.bound = max(rw.bound, b)
		}
		t.Run(strings.ReplaceAll(c.name, "/", "_"), func(t *testing.T) {
			rc, err := run(cpu, c)
			if err != nil {
				t.Fatalf("cpu: %v", err)
			}
			if err := checkTrap(c, rc); err != nil {
				t.Fatalf("cpu: %v", err)
			}
			if c.check != nil && c.trap == "" {
				if err := c.check(rc.outs); err != nil {
					t.Fatalf("cpu: %v", err)
				}
			}
			if hungAt != "" {
				rw.status = "FAIL"
				rw.detail = "not run: the device hung at " + hungAt
				t.Fatalf("%s: %s", backend, rw.detail)
			}
			if gpuDev == nil {
				rw.status = "skipped (no GPU)"
				t.Skipf("no %s device", backend)
			}
			start := time.Now()
			rg, err := runWithin(gpuDev, c, timeout)
			rw.gpuTime = time.Since(start)
			if errors.Is(err, errHung) {
				// The device is unusable (the hung launch holds its lock):
				// go on with a fresh one if the backend opens again.
				gpuFail(t, &rw, backend, err.Error())
				if d, err := device.OpenBackend(backend); err == nil {
					gpuDev = d
				} else {
					hungAt = c.name
				}
				return
			}
			if err != nil {
				gpuFail(t, &rw, backend, err.Error())
				return
			}
			if rg.trap != nil {
				rw.trap = fmt.Sprintf("%s at %s (block %d thread %d)", rg.trap.Msg, fileLine(rg.trap.Pos), rg.trap.Block.X, rg.trap.Thread.X)
			}
			if err := checkTrap(c, rg); err != nil {
				gpuFail(t, &rw, backend, err.Error())
				return
			}
			if c.check != nil && c.trap == "" {
				if err := c.check(rg.outs); err != nil {
					gpuFail(t, &rw, backend, err.Error())
					return
				}
			}
			u, err := compare(c, rc, rg)
			rw.maxULP = u
			if err != nil {
				gpuFail(t, &rw, backend, "differs from cpu: "+err.Error())
				return
			}
			rw.status = "ok"
			if c.trap != "" {
				rw.status = "ok (trapped as expected)"
			}
			if gap, ok := knownGaps[backend].byCase[c.name]; ok {
				t.Logf("%s passes on %s now though knownGaps lists it (%q): drop it from the list if it passes on every device", c.name, backend, gap)
			}
		})
		rows = append(rows, rw)
	}
	return rows
}

// knownGaps says, per GPU backend, which failures are gaps outside the
// runtime: a case failing with one of the backend's generic reasons (any
// case) or with the text recorded for that case is reported as a known gap,
// in the results table too, instead of failing the test; any other failure
// fails it, and a case listed by name that passes says so in the log.
var knownGaps = map[string]struct {
	any    []string          // failure texts that are a gap for every case
	byCase map[string]string // case name → the text its failure must contain
	// lacking: a device feature → the cases whose failure its absence
	// explains → the text the failure must contain; a gap only on a
	// device without the feature (deviceFeatures).
	lacking map[string]map[string]string
}{
	"vulkan": {
		any:    []string{},
		byCase: map[string]string{},
		lacking: map[string]map[string]string{
			// Without shaderDenormPreserveFloat32 (NVIDIA's driver) the
			// device may flush float32 subnormals to zero: Math32 feeds
			// them to float32 arithmetic (math32.Sqrt(1e-40) is 1e-20 in
			// Go, 0 there). No code the emitter could write keeps them
			// through float instructions on such a device; vulkan's
			// Info.Deviations says so at run time, and so does the Vulkan
			// section of docs/kernels.md. (Min, max and FMA decide on the bits
			// and keep Go's results there.)
			"shaderDenormPreserveFloat32": {"Math32": "ULP apart"},
		},
	},
}

// deviceFeatures holds, per GPU backend, the features of the device the
// suite runs on, where the backend reports them (vulkan).
var deviceFeatures = map[string]map[string]bool{}

// deviceDeviations holds, per GPU backend, what its device does
// differently from Go (vulkan's Info.Deviations), for the results file.
var deviceDeviations = map[string][]string{}

// readVulkanDevice records the features and deviations of the Vulkan
// device the suite runs on (the one device.OpenBackend("vulkan") opens).
func readVulkanDevice() {
	b, err := vulkan.OpenBackend()
	if err != nil {
		return
	}
	defer b.Close()
	in := b.Info()
	deviceFeatures["vulkan"] = map[string]bool{}
	for _, f := range in.Features {
		deviceFeatures["vulkan"][f] = true
	}
	deviceDeviations["vulkan"] = in.Deviations
}

// gpuFail records a GPU-side failure of a case: a known gap (knownGaps) is
// logged, anything else fails the test.
func gpuFail(t *testing.T, rw *row, backend, msg string) {
	t.Helper()
	rw.detail = msg
	g := knownGaps[backend]
	gap := false
	for _, text := range g.any {
		gap = gap || strings.Contains(msg, text)
	}
	if text, ok := g.byCase[rw.name]; ok && strings.Contains(msg, text) {
		gap = true
	}
	for feat, cases := range g.lacking {
		if text, ok := cases[rw.name]; ok && deviceFeatures[backend] != nil && !deviceFeatures[backend][feat] && strings.Contains(msg, text) {
			gap = true
			msg += " (the device lacks " + feat + ")"
			rw.detail = msg
		}
	}
	if gap {
		rw.status = "known gap"
		t.Logf("%s: known gap: %s", backend, msg)
		return
	}
	rw.status = "FAIL"
	t.Errorf("%s: %s", backend, msg)
}

var errHung = errors.New("the launch did not finish")

// runWithin is run with a time limit: a launch that hangs (a barrier some
// threads never reach, an endless loop) is reported instead of stopping
// the whole test run.
func runWithin(d *device.Device, c *tcase, timeout time.Duration) (*result, error) {
	type out struct {
		r   *result
		err error
	}
	done := make(chan out, 1)
	go func() {
		r, err := run(d, c)
		done <- out{r, err}
	}()
	select {
	case o := <-done:
		return o.r, o.err
	case <-time.After(timeout):
		return nil, fmt.Errorf("%w within %v (hung?); the remaining cases run on a freshly opened device", errHung, timeout)
	}
}

func writeResults(path, backend string, d *device.Device, rows []row) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Differential results: %s vs cpu\n\n", backend)
	fmt.Fprintf(&b, "Commit measured: %s. Written by `go test ./testdata/differential` with GPUKVET_DIFF_RESULTS set", os.Getenv("GPUKVET_COMMIT"))
	if d != nil {
		fmt.Fprintf(&b, ", on the %s backend (%s)", d.Backend(), os.Getenv("GPUKVET_GPU_NAME"))
	}
	fmt.Fprintf(&b, ", %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	for _, dv := range deviceDeviations[backend] {
		fmt.Fprintf(&b, "Device deviation (vulkan Info.Deviations): %s.\n\n", dv)
	}
	b.WriteString("Integers and bools must match exactly; floats within the ULP bound (0 = bit-identical, NaN payloads aside); ")
	b.WriteString("a trap must carry the same Go error at the same source line as on the cpu backend.\n\n")
	ok, failed, skipped, traps, gaps := 0, 0, 0, 0, 0
	for _, r := range rows {
		switch {
		case r.status == "known gap":
			gaps++
		case strings.HasPrefix(r.status, "ok"):
			ok++
			if r.trap != "" {
				traps++
			}
		case strings.HasPrefix(r.status, "skipped"):
			skipped++
		default:
			failed++
		}
	}
	fmt.Fprintf(&b, "%d cases: %d agree (%d of them traps as expected), %d differ or fail, %d known gaps (knownGaps in differential_test.go: the code generator or the device, not the runtime), %d skipped.\n\n", len(rows), ok, traps, failed, gaps, skipped)
	b.WriteString("| case | result | ULP bound | max ULP seen | trap on the GPU | detail |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		detail := strings.ReplaceAll(r.detail, "\n", " ")
		detail = strings.ReplaceAll(detail, "|", "\\|")
		if len(detail) > 300 {
			detail = detail[:300] + "…"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s |\n", r.name, r.status, r.bound, r.maxULP, r.trap, detail)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
