package corpus

// Held-out programs, round 8 of issue 20 (HELDOUT.md): host drivers in the
// style of SHOC's benchmark passes (buffers made and freed per pass, error
// paths in the middle), Gunrock's frontier resize, LonestarGPU's worklist
// swap and Parboil's phase-timed main with a cleanup closure, written with
// their verdicts decided before any analyzer ran.

import (
	"github.com/gpukvet/gpukvet/device"
)

// verdict: clean
// SHOC's pass loop: each pass uploads its input, allocates its output, runs,
// reads back and frees both; every error path frees what the pass holds.
func h12ShocPasses(d *device.Device, host []float32, passes int) (float32, error) {
	var total float32
	for pass := 0; pass < passes; pass++ {
		in, err := device.Upload(d, host)
		if err != nil {
			return 0, err
		}
		out, err := device.Alloc[float32](d, len(host))
		if err != nil {
			in.Free()
			return 0, err
		}
		if err := d.Launch(Add, grid(len(host)), block, in, in, out); err != nil {
			in.Free()
			out.Free()
			return 0, err
		}
		res, err := out.Download()
		in.Free()
		out.Free()
		if err != nil {
			return 0, err
		}
		total += res[0]
	}
	return total, nil
}

// verdict: leak
// The same pass loop whose launch error path frees the input only: the
// pass's output buffer leaks when the launch fails.
func h12ShocPassesLaunchErrLeak(d *device.Device, host []float32, passes int) (float32, error) {
	var total float32
	for pass := 0; pass < passes; pass++ {
		in, err := device.Upload(d, host)
		if err != nil {
			return 0, err
		}
		out, err := device.Alloc[float32](d, len(host))
		if err != nil {
			in.Free()
			return 0, err
		}
		if err := d.Launch(Add, grid(len(host)), block, in, in, out); err != nil {
			in.Free()
			return 0, err
		}
		res, err := out.Download()
		in.Free()
		out.Free()
		if err != nil {
			return 0, err
		}
		total += res[0]
	}
	return total, nil
}

// verdict: clean
// Gunrock's output frontier grows when the next advance may need more room:
// the old buffer is freed before the larger one replaces it.
func h12FrontierGrow(d *device.Device, sizes []int) error {
	out, err := device.Alloc[float32](d, 256)
	if err != nil {
		return err
	}
	for _, need := range sizes {
		if need > out.Len() {
			out.Free()
			out, err = device.Alloc[float32](d, need)
			if err != nil {
				return err
			}
		}
		if err := d.Launch(Scale, grid(need), block, float32(1), out); err != nil {
			out.Free()
			return err
		}
	}
	return out.Free()
}

// verdict: leak
// The frontier grown without freeing the buffer it replaces.
func h12FrontierGrowNoFree(d *device.Device, sizes []int) error {
	out, err := device.Alloc[float32](d, 256)
	if err != nil {
		return err
	}
	for _, need := range sizes {
		if need > out.Len() {
			out, err = device.Alloc[float32](d, need)
			if err != nil {
				return err
			}
		}
		if err := d.Launch(Scale, grid(need), block, float32(1), out); err != nil {
			out.Free()
			return err
		}
	}
	return out.Free()
}

// verdict: clean
// LonestarGPU's in/out worklists swapped after each round; one deferred
// closure frees whatever the two names hold when it runs (both buffers,
// once each).
func h12WorklistSwapClosure(d *device.Device, n, rounds int) error {
	in, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	out, err := device.Alloc[float32](d, n)
	if err != nil {
		in.Free()
		return err
	}
	defer func() {
		in.Free()
		out.Free()
	}()
	for r := 0; r < rounds; r++ {
		if err := d.Launch(Add, grid(n), block, in, in, out); err != nil {
			return err
		}
		in, out = out, in
	}
	return d.Sync()
}

// verdict: doublefree
// The worklists freed by two defers taken before the loop (receivers
// evaluated then: each buffer once), plus an explicit free of the final
// input, which is one of the two.
func h12WorklistSwapExtraFree(d *device.Device, n, rounds int) error {
	in, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	defer in.Free()
	out, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	defer out.Free()
	for r := 0; r < rounds; r++ {
		if err := d.Launch(Add, grid(n), block, in, in, out); err != nil {
			return err
		}
		in, out = out, in
	}
	if _, err := in.Download(); err != nil {
		return err
	}
	return in.Free()
}

// verdict: clean
// Parboil's main: buffers made phase by phase are appended to a list that
// a cleanup closure frees on every return.
func h12ParboilPhases(d *device.Device, a, b []float32) ([]float32, error) {
	var all []*device.Buffer[float32]
	cleanup := func() {
		for _, x := range all {
			x.Free()
		}
	}
	da, err := device.Upload(d, a)
	if err != nil {
		return nil, err
	}
	all = append(all, da)
	db, err := device.Upload(d, b)
	if err != nil {
		cleanup()
		return nil, err
	}
	all = append(all, db)
	dc, err := device.Alloc[float32](d, len(a))
	if err != nil {
		cleanup()
		return nil, err
	}
	all = append(all, dc)
	if err := d.Launch(Add, grid(len(a)), block, da, db, dc); err != nil {
		cleanup()
		return nil, err
	}
	res, err := dc.Download()
	cleanup()
	return res, err
}

// verdict: uaf
// Chai's host frees its input once the kernel is queued and then reads the
// input back to check it: a download of a freed buffer.
func h12ChaiCheckAfterFree(d *device.Device, host []float32) ([]float32, error) {
	in, err := device.Upload(d, host)
	if err != nil {
		return nil, err
	}
	out, err := device.Alloc[float32](d, len(host))
	if err != nil {
		in.Free()
		return nil, err
	}
	defer out.Free()
	if err := d.Launch(Add, grid(len(host)), block, in, in, out); err != nil {
		in.Free()
		return nil, err
	}
	in.Free()
	if _, err := in.Download(); err != nil {
		return nil, err
	}
	return out.Download()
}
