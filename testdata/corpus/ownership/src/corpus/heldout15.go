package corpus

// Held-out programs, round 11 of issue 20 (HELDOUT.md, branch h20arr): host
// drivers that keep device buffers in fixed arrays of buffers themselves,
// in the shapes of cuda-samples' simpleStreams and simpleMultiGPU
// (per-stream and per-device arrays filled and freed in counted loops),
// HeCBench's and Rodinia's ping-pong double buffers (`[2]*Buffer` indexed
// by constants and by the iteration's parity), and a per-device workspace
// grown in place; written with their verdicts decided before any analyzer
// ran.

import (
	"github.com/gpukvet/gpukvet/device"
)

// h15Streams is simpleStreams' nstreams.
const h15Streams = 4

// verdict: clean
// simpleStreams: one input and one output buffer per stream in fixed
// arrays, each stream's chunk uploaded and processed, every buffer freed by
// one loop over the streams at the end and on the error paths.
func h15StreamChunks(d *device.Device, xs []float32) ([]float32, error) {
	chunk := len(xs) / h15Streams
	var in, out [h15Streams]*device.Buffer[float32]
	release := func() {
		for i := 0; i < h15Streams; i++ {
			if in[i] != nil {
				in[i].Free()
			}
			if out[i] != nil {
				out[i].Free()
			}
		}
	}
	for i := 0; i < h15Streams; i++ {
		var err error
		if in[i], err = device.Upload(d, xs[i*chunk:(i+1)*chunk]); err != nil {
			release()
			return nil, err
		}
		if out[i], err = device.Alloc[float32](d, chunk); err != nil {
			release()
			return nil, err
		}
	}
	var res []float32
	for i := 0; i < h15Streams; i++ {
		if err := d.Launch(Add, grid(chunk), block, in[i], in[i], out[i]); err != nil {
			release()
			return nil, err
		}
		part, err := out[i].Download()
		if err != nil {
			release()
			return nil, err
		}
		res = append(res, part...)
	}
	release()
	return res, nil
}

// verdict: leak
// The same with the cleanup at the end only, which starts at the second
// stream: the first stream's pair is never freed on the successful return
// (nor are the earlier streams' pairs on the error paths).
func h15StreamChunksSkipFirst(d *device.Device, xs []float32) ([]float32, error) {
	chunk := len(xs) / h15Streams
	var in, out [h15Streams]*device.Buffer[float32]
	for i := 0; i < h15Streams; i++ {
		var err error
		if in[i], err = device.Upload(d, xs[i*chunk:(i+1)*chunk]); err != nil {
			return nil, err
		}
		if out[i], err = device.Alloc[float32](d, chunk); err != nil {
			in[i].Free()
			return nil, err
		}
		if err := d.Launch(Add, grid(chunk), block, in[i], in[i], out[i]); err != nil {
			return nil, err
		}
	}
	var res []float32
	for i := 0; i < h15Streams; i++ {
		part, err := out[i].Download()
		if err != nil {
			return nil, err
		}
		res = append(res, part...)
	}
	for i := 1; i < h15Streams; i++ {
		in[i].Free()
		out[i].Free()
	}
	return res, nil
}

// verdict: clean
// A ping-pong double buffer (`[2]*Buffer` by constant indices): each step
// reads buf[cur] and writes buf[1-cur]; both are freed at the end.
func h15PingPong(d *device.Device, xs []float32, steps int) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		buf[0].Free()
		return nil, err
	}
	defer buf[0].Free()
	defer buf[1].Free()
	cur := 0
	for s := 0; s < steps; s++ {
		if err := d.Launch(Add, grid(len(xs)), block, buf[cur], buf[cur], buf[1-cur]); err != nil {
			return nil, err
		}
		cur = 1 - cur
	}
	return buf[cur].Download()
}

// verdict: leak
// The same without defers, whose end frees the buffer the result was read
// from only: the other half of the pair leaks.
func h15PingPongFreesOne(d *device.Device, xs []float32, steps int) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		buf[0].Free()
		return nil, err
	}
	for s := 0; s < steps; s++ {
		if err := d.Launch(Add, grid(len(xs)), block, buf[0], buf[0], buf[1]); err != nil {
			buf[0].Free()
			buf[1].Free()
			return nil, err
		}
		buf[0], buf[1] = buf[1], buf[0]
	}
	res, err := buf[0].Download()
	buf[0].Free()
	return res, err
}

// h15MaxGPUs is simpleMultiGPU's MAX_GPU_COUNT.
const h15MaxGPUs = 8

// verdict: clean
// simpleMultiGPU: per-device buffers in arrays indexed by the device id,
// released by a deferred loop over the devices in use.
func h15PerDevice(d *device.Device, gpus, n int) error {
	if gpus > h15MaxGPUs {
		gpus = h15MaxGPUs
	}
	var data, sum [h15MaxGPUs]*device.Buffer[float32]
	defer func() {
		for dev := 0; dev < h15MaxGPUs; dev++ {
			if data[dev] != nil {
				data[dev].Free()
			}
			if sum[dev] != nil {
				sum[dev].Free()
			}
		}
	}()
	for dev := 0; dev < gpus; dev++ {
		var err error
		if data[dev], err = device.Alloc[float32](d, n); err != nil {
			return err
		}
		if sum[dev], err = device.Alloc[float32](d, n); err != nil {
			return err
		}
	}
	for dev := 0; dev < gpus; dev++ {
		if err := d.Launch(Add, grid(n), block, data[dev], data[dev], sum[dev]); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The same with an explicit cleanup at the end only: an allocation that
// fails on the k-th device returns without freeing the buffers of the
// devices before it.
func h15PerDeviceErrLeak(d *device.Device, gpus, n int) error {
	if gpus > h15MaxGPUs {
		gpus = h15MaxGPUs
	}
	var data, sum [h15MaxGPUs]*device.Buffer[float32]
	for dev := 0; dev < gpus; dev++ {
		var err error
		if data[dev], err = device.Alloc[float32](d, n); err != nil {
			return err
		}
		if sum[dev], err = device.Alloc[float32](d, n); err != nil {
			data[dev].Free()
			return err
		}
	}
	err := d.Sync()
	for dev := 0; dev < gpus; dev++ {
		data[dev].Free()
		sum[dev].Free()
	}
	return err
}

// verdict: clean
// A per-device workspace grown in place: the old buffer of the element is
// freed before the larger one is stored over it.
func h15WorkspaceGrow(d *device.Device, sizes []int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, 256); err != nil {
		return err
	}
	if ws[1], err = device.Alloc[float32](d, 256); err != nil {
		ws[0].Free()
		return err
	}
	defer func() {
		for _, b := range ws {
			if b != nil {
				b.Free()
			}
		}
	}()
	for _, n := range sizes {
		if n > ws[0].Len() {
			ws[0].Free()
			if ws[0], err = device.Alloc[float32](d, n); err != nil {
				ws[0] = nil
				return err
			}
		}
		if err := d.Launch(Add, grid(n), block, ws[0], ws[0], ws[1]); err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
// The same, whose growth stores the larger buffer over the element without
// freeing the old one.
func h15WorkspaceGrowOverwrite(d *device.Device, sizes []int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, 256); err != nil {
		return err
	}
	if ws[1], err = device.Alloc[float32](d, 256); err != nil {
		ws[0].Free()
		return err
	}
	defer func() {
		for _, b := range ws {
			if b != nil {
				b.Free()
			}
		}
	}()
	for _, n := range sizes {
		if n > ws[0].Len() {
			if ws[0], err = device.Alloc[float32](d, n); err != nil {
				return err
			}
		}
		if err := d.Launch(Add, grid(n), block, ws[0], ws[0], ws[1]); err != nil {
			return err
		}
	}
	return nil
}

// verdict: clean
// A slice of per-stream scratch buffers made for the streams, released by a
// deferred loop; the first stream's scratch is grown for a larger batch by
// freeing it and allocating again (a failed allocation leaves nil there).
func h15StreamScratchGrow(d *device.Device, streams int, batches []int) error {
	scratch := make([]*device.Buffer[float32], streams)
	defer func() {
		for _, b := range scratch {
			if b != nil {
				b.Free()
			}
		}
	}()
	var err error
	if scratch[0], err = device.Alloc[float32](d, 1024); err != nil {
		return err
	}
	for _, n := range batches {
		if n > scratch[0].Len() {
			scratch[0].Free()
			if scratch[0], err = device.Alloc[float32](d, n); err != nil {
				return err
			}
		}
		if err := d.Launch(Scale, grid(n), block, float32(2), scratch[0]); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The same, whose growth allocates over the first stream's scratch without
// freeing it: the smaller buffer is lost each time it grows.
func h15StreamScratchGrowLeak(d *device.Device, streams int, batches []int) error {
	scratch := make([]*device.Buffer[float32], streams)
	defer func() {
		for _, b := range scratch {
			if b != nil {
				b.Free()
			}
		}
	}()
	var err error
	if scratch[0], err = device.Alloc[float32](d, 1024); err != nil {
		return err
	}
	for _, n := range batches {
		if n > scratch[0].Len() {
			if scratch[0], err = device.Alloc[float32](d, n); err != nil {
				return err
			}
		}
		if err := d.Launch(Scale, grid(n), block, float32(2), scratch[0]); err != nil {
			return err
		}
	}
	return d.Sync()
}
