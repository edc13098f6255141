package corpus

// Held-out programs, round 9 of issue 20 (HELDOUT.md): host drivers in the
// shape of NVIDIA cuda-samples' mains and plan helpers (fastWalshTransform,
// mergeSort, MonteCarloMultiGPU's per-GPU plans, histogram64's
// init/close pair, binomialOptions' batches), written with their verdicts
// decided before any analyzer ran.

import (
	"errors"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: clean
// fastWalshTransform's main: the data and kernel buffers are allocated one
// after the other (the first freed if the second fails), both freed at the
// end, after the result is read back.
func h13FwtMain(d *device.Device, data, kernel []float32) ([]float32, error) {
	dData, err := device.Upload(d, data)
	if err != nil {
		return nil, err
	}
	dKernel, err := device.Upload(d, kernel)
	if err != nil {
		dData.Free()
		return nil, err
	}
	if err := d.Launch(Add, grid(len(data)), block, dData, dKernel, dData); err != nil {
		dKernel.Free()
		dData.Free()
		return nil, err
	}
	res, err := dData.Download()
	dKernel.Free()
	dData.Free()
	return res, err
}

// verdict: leak
// The same main whose kernel-buffer error path returns without freeing the
// data buffer (checkCudaErrors exits the process; a Go port returns).
func h13FwtMainKernelErrLeak(d *device.Device, data, kernel []float32) ([]float32, error) {
	dData, err := device.Upload(d, data)
	if err != nil {
		return nil, err
	}
	dKernel, err := device.Upload(d, kernel)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Add, grid(len(data)), block, dData, dKernel, dData); err != nil {
		dKernel.Free()
		dData.Free()
		return nil, err
	}
	res, err := dData.Download()
	dKernel.Free()
	dData.Free()
	return res, err
}

// verdict: clean
// mergeSort's main: source, buffer and destination keys, each freed by a
// defer registered right after its allocation.
func h13MergeSortMain(d *device.Device, keys []float32) ([]float32, error) {
	src, err := device.Upload(d, keys)
	if err != nil {
		return nil, err
	}
	defer src.Free()
	buf, err := device.Alloc[float32](d, len(keys))
	if err != nil {
		return nil, err
	}
	defer buf.Free()
	dst, err := device.Alloc[float32](d, len(keys))
	if err != nil {
		return nil, err
	}
	defer dst.Free()
	if err := d.Launch(Add, grid(len(keys)), block, src, buf, dst); err != nil {
		return nil, err
	}
	return dst.Download()
}

// h13CloseMergeSort is mergeSort's closeMergeSort: it frees the rank and
// limit buffers initMergeSort made.
func h13CloseMergeSort(ranks, limits *device.Buffer[float32]) {
	ranks.Free()
	limits.Free()
}

// verdict: doublefree
// mergeSort's main calling closeMergeSort and then freeing the rank buffer
// itself again.
func h13MergeSortCloseTwice(d *device.Device, n int) error {
	ranks, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	limits, err := device.Alloc[float32](d, n)
	if err != nil {
		ranks.Free()
		return err
	}
	if err := d.Launch(Scale, grid(n), block, float32(2), ranks); err != nil {
		h13CloseMergeSort(ranks, limits)
		return err
	}
	h13CloseMergeSort(ranks, limits)
	return ranks.Free()
}

// verdict: uaf
// mergeSort's validation reading the sorted keys back after the
// destination buffer was freed.
func h13ValidateAfterFree(d *device.Device, keys []float32) (bool, error) {
	dst, err := device.Upload(d, keys)
	if err != nil {
		return false, err
	}
	if err := d.Launch(Scale, grid(len(keys)), block, float32(1), dst); err != nil {
		dst.Free()
		return false, err
	}
	dst.Free()
	res, err := dst.Download()
	if err != nil {
		return false, err
	}
	for i := 1; i < len(res); i++ {
		if res[i-1] > res[i] {
			return false, nil
		}
	}
	return true, nil
}

// mcPlan is MonteCarloMultiGPU's TOptionPlan, its device side.
type mcPlan struct {
	optionData *device.Buffer[float32]
	callValue  *device.Buffer[float32]
}

// verdict: clean
// initMonteCarloGPU / closeMonteCarloGPU over one plan per GPU: every plan
// made is closed by the deferred loop, a plan whose second allocation fails
// frees its first.
func h13MonteCarloPlans(d *device.Device, gpus, optionN int) error {
	var plans []mcPlan
	defer func() {
		for _, p := range plans {
			p.callValue.Free()
			p.optionData.Free()
		}
	}()
	for i := 0; i < gpus; i++ {
		od, err := device.Alloc[float32](d, 4*optionN)
		if err != nil {
			return err
		}
		cv, err := device.Alloc[float32](d, 2*optionN)
		if err != nil {
			od.Free()
			return err
		}
		plans = append(plans, mcPlan{optionData: od, callValue: cv})
	}
	for _, p := range plans {
		if err := d.Launch(Add, grid(optionN), block, p.optionData, p.optionData, p.callValue); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The plans' close loop frees each plan's option data but not its call
// values.
func h13MonteCarloPlansCloseMissesOne(d *device.Device, gpus, optionN int) error {
	var plans []mcPlan
	defer func() {
		for _, p := range plans {
			p.optionData.Free()
		}
	}()
	for i := 0; i < gpus; i++ {
		od, err := device.Alloc[float32](d, 4*optionN)
		if err != nil {
			return err
		}
		cv, err := device.Alloc[float32](d, 2*optionN)
		if err != nil {
			od.Free()
			return err
		}
		plans = append(plans, mcPlan{optionData: od, callValue: cv})
	}
	for _, p := range plans {
		if err := d.Launch(Add, grid(optionN), block, p.optionData, p.optionData, p.callValue); err != nil {
			return err
		}
	}
	return d.Sync()
}

// partialHistograms is histogram64's static d_PartialHistograms: made by
// initHistogram64, freed by closeHistogram64.
var partialHistograms *device.Buffer[float32]

// verdict: clean
// histogram64's initHistogram64: the buffer is handed to the package-level
// variable that closeHistogram64 frees.
func h13InitHistogram64(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	partialHistograms = b
	return nil
}

// verdict: clean
// histogram64's closeHistogram64.
func h13CloseHistogram64() error {
	if partialHistograms == nil {
		return errors.New("histogram64 not initialised")
	}
	err := partialHistograms.Free()
	partialHistograms = nil
	return err
}

// verdict: leak
// binomialOptions priced batch by batch: a batch whose launch fails is
// skipped with `continue`, its option buffer never freed.
func h13BinomialBatchesSkipLeak(d *device.Device, batches [][]float32) ([]float32, error) {
	var out []float32
	for _, b := range batches {
		opt, err := device.Upload(d, b)
		if err != nil {
			return nil, err
		}
		if err := d.Launch(Scale, grid(len(b)), block, float32(0.5), opt); err != nil {
			continue
		}
		res, err := opt.Download()
		opt.Free()
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	}
	return out, nil
}

// verdict: clean
// The batches with the skipped batch's buffer freed before `continue`.
func h13BinomialBatchesSkipFreed(d *device.Device, batches [][]float32) ([]float32, error) {
	var out []float32
	for _, b := range batches {
		opt, err := device.Upload(d, b)
		if err != nil {
			return nil, err
		}
		if err := d.Launch(Scale, grid(len(b)), block, float32(0.5), opt); err != nil {
			opt.Free()
			continue
		}
		res, err := opt.Download()
		opt.Free()
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	}
	return out, nil
}
