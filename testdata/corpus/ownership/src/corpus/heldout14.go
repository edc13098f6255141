package corpus

// Held-out programs, round 10 of issue 20 (HELDOUT.md, branch h20own): host
// drivers that keep device buffers in collections of plain structs, in the
// shape of nccl-tests' per-rank send/receive buffers, cuda-samples'
// p2pBandwidthLatencyTest per-device buffers, Gunrock's per-GPU data
// slices, a per-device map of stream buffers, MAGMA's multi-GPU panels
// (structs nested in structs), per-GPU FFT plans held by pointer and
// simpleHyperQ's per-stream contexts with a value-receiver Close; written
// with their verdicts decided before any analyzer ran.

import (
	"github.com/gpukvet/gpukvet/device"
)

// ncclRankBufs is one rank's sendbuff and recvbuff of nccl-tests'
// threadArgs.
type ncclRankBufs struct {
	send, recv *device.Buffer[float32]
}

// verdict: clean
// nccl-tests: one pair of buffers per GPU in a slice filled by index; the
// deferred cleanup frees every buffer that was allocated, also on the
// error paths of the allocation loop.
func h14NcclRankBuffers(d *device.Device, nGpus, count int) error {
	ranks := make([]ncclRankBufs, nGpus)
	defer func() {
		for i := range ranks {
			if ranks[i].send != nil {
				ranks[i].send.Free()
			}
			if ranks[i].recv != nil {
				ranks[i].recv.Free()
			}
		}
	}()
	for i := range ranks {
		var err error
		ranks[i].send, err = device.Alloc[float32](d, count)
		if err != nil {
			return err
		}
		ranks[i].recv, err = device.Alloc[float32](d, count)
		if err != nil {
			return err
		}
	}
	for _, r := range ranks {
		if err := d.Launch(Add, grid(count), block, r.send, r.send, r.recv); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The same, whose cleanup frees the send buffers only: every receive
// buffer leaks.
func h14NcclRankBuffersRecvLeak(d *device.Device, nGpus, count int) error {
	ranks := make([]ncclRankBufs, nGpus)
	defer func() {
		for i := range ranks {
			if ranks[i].send != nil {
				ranks[i].send.Free()
			}
		}
	}()
	for i := range ranks {
		var err error
		ranks[i].send, err = device.Alloc[float32](d, count)
		if err != nil {
			return err
		}
		ranks[i].recv, err = device.Alloc[float32](d, count)
		if err != nil {
			return err
		}
	}
	for _, r := range ranks {
		if err := d.Launch(Add, grid(count), block, r.send, r.send, r.recv); err != nil {
			return err
		}
	}
	return d.Sync()
}

// p2pDevBufs is p2pBandwidthLatencyTest's buffers[d] and buffersD2D[d].
type p2pDevBufs struct {
	buf, d2d *device.Buffer[float32]
}

const p2pMaxDevs = 8

// verdict: clean
// p2pBandwidthLatencyTest: a fixed array of per-device buffers, allocated
// for the devices in use and freed by one loop at the end; a failed
// allocation frees what the array holds so far.
func h14P2PDeviceArray(d *device.Device, numGPUs, numElems int) error {
	if numGPUs > p2pMaxDevs {
		numGPUs = p2pMaxDevs
	}
	var devs [p2pMaxDevs]p2pDevBufs
	release := func() {
		for i := range devs {
			if devs[i].buf != nil {
				devs[i].buf.Free()
			}
			if devs[i].d2d != nil {
				devs[i].d2d.Free()
			}
		}
	}
	for i := 0; i < numGPUs; i++ {
		var err error
		if devs[i].buf, err = device.Alloc[float32](d, numElems); err != nil {
			release()
			return err
		}
		if devs[i].d2d, err = device.Alloc[float32](d, numElems); err != nil {
			release()
			return err
		}
	}
	for i := 0; i < numGPUs; i++ {
		if err := d.Launch(Add, grid(numElems), block, devs[i].buf, devs[i].buf, devs[i].d2d); err != nil {
			release()
			return err
		}
	}
	err := d.Sync()
	release()
	return err
}

// verdict: leak
// The same with a latency pass after the bandwidth pass: each device's
// buffer is allocated again at the latency test's size over the bandwidth
// test's, which is never freed.
func h14P2PDeviceArrayRealloc(d *device.Device, numGPUs, numElems int) error {
	if numGPUs > p2pMaxDevs {
		numGPUs = p2pMaxDevs
	}
	var devs [p2pMaxDevs]p2pDevBufs
	release := func() {
		for i := range devs {
			if devs[i].buf != nil {
				devs[i].buf.Free()
			}
			if devs[i].d2d != nil {
				devs[i].d2d.Free()
			}
		}
	}
	for i := 0; i < numGPUs; i++ {
		var err error
		if devs[i].buf, err = device.Alloc[float32](d, numElems); err != nil {
			release()
			return err
		}
		if devs[i].d2d, err = device.Alloc[float32](d, numElems); err != nil {
			release()
			return err
		}
	}
	for i := 0; i < numGPUs; i++ {
		var err error
		if devs[i].buf, err = device.Alloc[float32](d, 1); err != nil {
			release()
			return err
		}
	}
	err := d.Sync()
	release()
	return err
}

// gunrockSlice is one GPU's DataSlice of a Gunrock primitive: labels and
// predecessors; Release frees both.
type gunrockSlice struct {
	labels, preds *device.Buffer[float32]
}

func (s *gunrockSlice) Release() error {
	var first error
	if s.labels != nil {
		first = s.labels.Free()
	}
	if s.preds != nil {
		if err := s.preds.Free(); first == nil {
			first = err
		}
	}
	s.labels, s.preds = nil, nil
	return first
}

// verdict: clean
// Gunrock's per-GPU data slices, a slice of values: each filled field by
// field, every one released by the deferred loop.
func h14GunrockDataSlices(d *device.Device, numGPUs, nodes int) error {
	ds := make([]gunrockSlice, numGPUs)
	defer func() {
		for i := range ds {
			ds[i].Release()
		}
	}()
	for i := range ds {
		var err error
		if ds[i].labels, err = device.Alloc[float32](d, nodes); err != nil {
			return err
		}
		if ds[i].preds, err = device.Alloc[float32](d, nodes); err != nil {
			return err
		}
	}
	for i := range ds {
		if err := d.Launch(Add, grid(nodes), block, ds[i].labels, ds[i].labels, ds[i].preds); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The same, which retries on one GPU less after a failed launch: cutting
// the slice drops the last GPU's data slice, whose buffers the deferred
// loop no longer sees.
func h14GunrockDataSlicesShrinkLeak(d *device.Device, numGPUs, nodes int) error {
	ds := make([]gunrockSlice, numGPUs)
	defer func() {
		for i := range ds {
			ds[i].Release()
		}
	}()
	for i := range ds {
		var err error
		if ds[i].labels, err = device.Alloc[float32](d, nodes); err != nil {
			return err
		}
		if ds[i].preds, err = device.Alloc[float32](d, nodes); err != nil {
			return err
		}
	}
	last := len(ds) - 1
	if last > 0 {
		if err := d.Launch(Add, grid(nodes), block, ds[last].labels, ds[last].labels, ds[last].preds); err != nil {
			ds = ds[:last]
		}
	}
	return d.Sync()
}

// streamBufs is one device's input and output, kept in a map by device id.
type streamBufs struct {
	in, out *device.Buffer[float32]
}

// verdict: clean
// Per-device stream buffers in a map keyed by device id (cudaOpenMP's
// per-thread GPU slices, one host thread per id): a device whose second
// allocation fails frees its first; the deferred loop frees every entry.
func h14StreamMap(d *device.Device, ids []int, xs []float32) error {
	bufs := map[int]streamBufs{}
	defer func() {
		for _, s := range bufs {
			s.in.Free()
			s.out.Free()
		}
	}()
	for _, id := range ids {
		in, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		out, err := device.Alloc[float32](d, len(xs))
		if err != nil {
			in.Free()
			return err
		}
		bufs[id] = streamBufs{in: in, out: out}
	}
	for _, s := range bufs {
		if err := d.Launch(Add, grid(len(xs)), block, s.in, s.in, s.out); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The same, which drops a device whose launch fails from the map without
// freeing its buffers.
func h14StreamMapDeleteLeak(d *device.Device, ids []int, xs []float32) error {
	bufs := map[int]streamBufs{}
	defer func() {
		for _, s := range bufs {
			s.in.Free()
			s.out.Free()
		}
	}()
	for _, id := range ids {
		in, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		out, err := device.Alloc[float32](d, len(xs))
		if err != nil {
			in.Free()
			return err
		}
		bufs[id] = streamBufs{in: in, out: out}
	}
	for id, s := range bufs {
		if err := d.Launch(Add, grid(len(xs)), block, s.in, s.in, s.out); err != nil {
			delete(bufs, id)
		}
	}
	return d.Sync()
}

// magmaPanel is one device's panel of MAGMA's multi-GPU LU: d_lA and
// d_lAP.
type magmaPanel struct {
	dA, dAP *device.Buffer[float32]
}

// magmaDevPlan nests the panel with the device's work array.
type magmaDevPlan struct {
	dev   int
	panel magmaPanel
	work  *device.Buffer[float32]
}

// verdict: clean
// MAGMA's mgpu LU setup: per device a panel (two buffers, a struct inside
// the plan) and a work array, appended as one nested literal once all
// three are allocated; the deferred loop frees the three.
func h14MagmaNestedPlans(d *device.Device, ngpu, n int) error {
	var plans []magmaDevPlan
	defer func() {
		for _, p := range plans {
			p.panel.dA.Free()
			p.panel.dAP.Free()
			p.work.Free()
		}
	}()
	for dev := 0; dev < ngpu; dev++ {
		dA, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		dAP, err := device.Alloc[float32](d, n)
		if err != nil {
			dA.Free()
			return err
		}
		work, err := device.Alloc[float32](d, n)
		if err != nil {
			dAP.Free()
			dA.Free()
			return err
		}
		plans = append(plans, magmaDevPlan{dev: dev, panel: magmaPanel{dA: dA, dAP: dAP}, work: work})
	}
	for _, p := range plans {
		if err := d.Launch(Add, grid(n), block, p.panel.dA, p.panel.dAP, p.work); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// The same, whose work-array error path frees the panel's d_lAP only:
// d_lA leaks (it is not in the slice yet).
func h14MagmaNestedPlansErrLeak(d *device.Device, ngpu, n int) error {
	var plans []magmaDevPlan
	defer func() {
		for _, p := range plans {
			p.panel.dA.Free()
			p.panel.dAP.Free()
			p.work.Free()
		}
	}()
	for dev := 0; dev < ngpu; dev++ {
		dA, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		dAP, err := device.Alloc[float32](d, n)
		if err != nil {
			dA.Free()
			return err
		}
		work, err := device.Alloc[float32](d, n)
		if err != nil {
			dAP.Free()
			return err
		}
		plans = append(plans, magmaDevPlan{dev: dev, panel: magmaPanel{dA: dA, dAP: dAP}, work: work})
	}
	for _, p := range plans {
		if err := d.Launch(Add, grid(n), block, p.panel.dA, p.panel.dAP, p.work); err != nil {
			return err
		}
	}
	return d.Sync()
}

// fftPlan is one GPU's part of a multi-GPU FFT (simpleCUFFT_MGPU's
// per-GPU descriptor): its input and output, held by pointer.
type fftPlan struct {
	gpu     int
	in, out *device.Buffer[float32]
}

// verdict: clean
// Per-GPU FFT plans appended as pointers to struct literals and freed
// field by field by the deferred loop.
func h14FftPlanPointers(d *device.Device, gpus int, xs []float32) ([]float32, error) {
	var plans []*fftPlan
	defer func() {
		for _, p := range plans {
			p.in.Free()
			p.out.Free()
		}
	}()
	for g := 0; g < gpus; g++ {
		in, err := device.Upload(d, xs)
		if err != nil {
			return nil, err
		}
		out, err := device.Alloc[float32](d, len(xs))
		if err != nil {
			in.Free()
			return nil, err
		}
		plans = append(plans, &fftPlan{gpu: g, in: in, out: out})
	}
	if len(plans) == 0 {
		return nil, nil
	}
	for _, p := range plans {
		if err := d.Launch(Add, grid(len(xs)), block, p.in, p.in, p.out); err != nil {
			return nil, err
		}
	}
	return plans[0].out.Download()
}

// verdict: leak
// The same, which gives the first GPU a larger output for the gathered
// result by allocating over its output without freeing the old one.
func h14FftPlanPointersOverwrite(d *device.Device, gpus int, xs []float32) ([]float32, error) {
	var plans []*fftPlan
	defer func() {
		for _, p := range plans {
			p.in.Free()
			p.out.Free()
		}
	}()
	for g := 0; g < gpus; g++ {
		in, err := device.Upload(d, xs)
		if err != nil {
			return nil, err
		}
		out, err := device.Alloc[float32](d, len(xs))
		if err != nil {
			in.Free()
			return nil, err
		}
		plans = append(plans, &fftPlan{gpu: g, in: in, out: out})
	}
	if len(plans) == 0 {
		return nil, nil
	}
	big, err := device.Alloc[float32](d, gpus*len(xs))
	if err != nil {
		return nil, err
	}
	plans[0].out = big
	if err := d.Launch(Add, grid(len(xs)), block, plans[0].in, plans[0].in, plans[0].out); err != nil {
		return nil, err
	}
	return plans[0].out.Download()
}

// hyperQStream is simpleHyperQ's per-stream pair with a value-receiver
// Close.
type hyperQStream struct {
	a, b *device.Buffer[float32]
}

func (s hyperQStream) Close() {
	s.a.Free()
	s.b.Free()
}

// verdict: clean
// One context per stream, appended once both buffers exist, each closed by
// the cleanup loop at the end (and on the launch error path).
func h14HyperQStreams(d *device.Device, nstreams, n int) error {
	var streams []hyperQStream
	closeAll := func() {
		for _, s := range streams {
			s.Close()
		}
	}
	for i := 0; i < nstreams; i++ {
		a, err := device.Alloc[float32](d, n)
		if err != nil {
			closeAll()
			return err
		}
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			a.Free()
			closeAll()
			return err
		}
		streams = append(streams, hyperQStream{a: a, b: b})
	}
	for _, s := range streams {
		if err := d.Launch(Add, grid(n), block, s.a, s.a, s.b); err != nil {
			closeAll()
			return err
		}
	}
	err := d.Sync()
	closeAll()
	return err
}

// verdict: leak
// The same, whose cleanup loop stops one stream short (a port of the
// sample's loop over the streams after the first).
func h14HyperQStreamsShortLoop(d *device.Device, nstreams, n int) error {
	var streams []hyperQStream
	closeAll := func() {
		for j := 1; j < len(streams); j++ {
			streams[j].Close()
		}
	}
	for i := 0; i < nstreams; i++ {
		a, err := device.Alloc[float32](d, n)
		if err != nil {
			closeAll()
			return err
		}
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			a.Free()
			closeAll()
			return err
		}
		streams = append(streams, hyperQStream{a: a, b: b})
	}
	for _, s := range streams {
		if err := d.Launch(Add, grid(n), block, s.a, s.a, s.b); err != nil {
			closeAll()
			return err
		}
	}
	err := d.Sync()
	closeAll()
	return err
}

// Round 10, second batch: probes written for the next classes of the
// family (not from one public program): plain structs freed through a
// method or a function of the package that frees their fields, and
// structs holding a slice of buffers, kept in a slice.

// peerPlan is a per-peer pair with a cleanup method that is not named
// Close, Free or Release.
type peerPlan struct {
	send, recv *device.Buffer[float32]
}

func (p *peerPlan) destroy() {
	p.send.Free()
	p.recv.Free()
}

func (p *peerPlan) destroySendOnly() {
	p.send.Free()
}

func freePeerPlan(p peerPlan) {
	p.send.Free()
	p.recv.Free()
}

func freePeerSend(p peerPlan) {
	p.send.Free()
}

func allocPeerPlan(d *device.Device, n int) (peerPlan, error) {
	send, err := device.Alloc[float32](d, n)
	if err != nil {
		return peerPlan{}, err
	}
	recv, err := device.Alloc[float32](d, n)
	if err != nil {
		send.Free()
		return peerPlan{}, err
	}
	return peerPlan{send: send, recv: recv}, nil
}

// verdict: clean
// Peers appended as literals, destroyed by a method on each element.
func h14PeerPlansDestroyed(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for i := range plans {
			plans[i].destroy()
		}
	}()
	for i := 0; i < peers; i++ {
		send, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		recv, err := device.Alloc[float32](d, n)
		if err != nil {
			send.Free()
			return err
		}
		plans = append(plans, peerPlan{send: send, recv: recv})
	}
	return nil
}

// verdict: leak
// The same with a method that frees the send buffers only.
func h14PeerPlansDestroySendOnly(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for i := range plans {
			plans[i].destroySendOnly()
		}
	}()
	for i := 0; i < peers; i++ {
		send, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		recv, err := device.Alloc[float32](d, n)
		if err != nil {
			send.Free()
			return err
		}
		plans = append(plans, peerPlan{send: send, recv: recv})
	}
	return nil
}

// verdict: clean
// Peers freed by a function that takes each one by value.
func h14PeerPlansFreedByFunc(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			freePeerPlan(p)
		}
	}()
	for i := 0; i < peers; i++ {
		send, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		recv, err := device.Alloc[float32](d, n)
		if err != nil {
			send.Free()
			return err
		}
		plans = append(plans, peerPlan{send: send, recv: recv})
	}
	return nil
}

// verdict: leak
// The same with a function that frees the send buffer only.
func h14PeerPlansFreedByFuncSendOnly(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			freePeerSend(p)
		}
	}()
	for i := 0; i < peers; i++ {
		send, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		recv, err := device.Alloc[float32](d, n)
		if err != nil {
			send.Free()
			return err
		}
		plans = append(plans, peerPlan{send: send, recv: recv})
	}
	return nil
}

// streamCtx holds one stream's staging buffers in a slice.
type streamCtx struct {
	id   int
	bufs []*device.Buffer[float32]
}

// verdict: clean
// Per-stream contexts holding a slice of buffers each; the deferred loop
// frees every buffer of every context; a context whose allocation fails
// frees the buffers it has.
func h14StreamCtxSlices(d *device.Device, streams, n int) error {
	var ctxs []streamCtx
	defer func() {
		for _, c := range ctxs {
			for _, b := range c.bufs {
				b.Free()
			}
		}
	}()
	for i := 0; i < streams; i++ {
		var bufs []*device.Buffer[float32]
		for j := 0; j < 3; j++ {
			b, err := device.Alloc[float32](d, n)
			if err != nil {
				for _, x := range bufs {
					x.Free()
				}
				return err
			}
			bufs = append(bufs, b)
		}
		ctxs = append(ctxs, streamCtx{id: i, bufs: bufs})
	}
	return nil
}

// verdict: leak
// The same whose cleanup forgets the contexts' buffers: it only logs the
// contexts it closes.
func h14StreamCtxSlicesNeverFreed(d *device.Device, streams, n int) error {
	var ctxs []streamCtx
	closed := 0
	defer func() {
		for range ctxs {
			closed++
		}
	}()
	for i := 0; i < streams; i++ {
		var bufs []*device.Buffer[float32]
		for j := 0; j < 3; j++ {
			b, err := device.Alloc[float32](d, n)
			if err != nil {
				for _, x := range bufs {
					x.Free()
				}
				return err
			}
			bufs = append(bufs, b)
		}
		ctxs = append(ctxs, streamCtx{id: i, bufs: bufs})
	}
	return nil
}

// verdict: clean
// Peers made by a constructor returning the struct by value, appended and
// freed field by field.
func h14PeerPlansFromConstructor(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			p.send.Free()
			p.recv.Free()
		}
	}()
	for i := 0; i < peers; i++ {
		p, err := allocPeerPlan(d, n)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	return nil
}

// verdict: leak
// The same whose error path drops the plans made so far: the cleanup is
// written after the loop, so an error in the loop returns without it.
func h14PeerPlansFromConstructorErrLeak(d *device.Device, peers, n int) error {
	var plans []peerPlan
	for i := 0; i < peers; i++ {
		p, err := allocPeerPlan(d, n)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	for _, p := range plans {
		p.send.Free()
		p.recv.Free()
	}
	return nil
}

// Round 10, third probe: a collection whose buffers are freed through the
// variables they were put there from, not through the collection.

// verdict: clean
// A job table built from two buffers, which are freed through their own
// variables after the launches.
func h14JobTableFreedByVars(d *device.Device, n int) error {
	in, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	out, err := device.Alloc[float32](d, n)
	if err != nil {
		in.Free()
		return err
	}
	var jobs []peerPlan
	jobs = append(jobs, peerPlan{send: in, recv: out})
	for _, j := range jobs {
		if err = d.Launch(Add, grid(n), block, j.send, j.send, j.recv); err != nil {
			break
		}
	}
	in.Free()
	out.Free()
	return err
}

// verdict: clean
// The same with a slice of buffers.
func h14BufferListFreedByVars(d *device.Device, n int) error {
	in, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	out, err := device.Alloc[float32](d, n)
	if err != nil {
		in.Free()
		return err
	}
	var bufs []*device.Buffer[float32]
	bufs = append(bufs, in, out)
	err = d.Launch(Add, grid(n), block, bufs[0], bufs[0], bufs[1])
	in.Free()
	out.Free()
	return err
}

// verdict: leak
// The job table whose output buffer is never freed.
func h14JobTableFreedByVarsMissesOne(d *device.Device, n int) error {
	in, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	out, err := device.Alloc[float32](d, n)
	if err != nil {
		in.Free()
		return err
	}
	var jobs []peerPlan
	jobs = append(jobs, peerPlan{send: in, recv: out})
	for _, j := range jobs {
		if err = d.Launch(Add, grid(n), block, j.send, j.send, j.recv); err != nil {
			break
		}
	}
	in.Free()
	return err
}

// verdict: leak
// Buffers allocated in a loop and appended, of which only the last one is
// freed through its variable after the loop.
func h14BufferListLastFreed(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	var last *device.Buffer[float32]
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
		last = b
	}
	if last != nil {
		last.Free()
	}
	return nil
}

// Round 10, fourth probe: an element replaced whole, and an element's
// field freed while a deferred loop frees every element.

// verdict: leak
// The first peer's plan is replaced by a new one without freeing the old
// plan's buffers.
func h14PeerPlanReplacedWhole(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			p.send.Free()
			p.recv.Free()
		}
	}()
	for i := 0; i < peers; i++ {
		p, err := allocPeerPlan(d, n)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	if len(plans) > 0 {
		p, err := allocPeerPlan(d, 2*n)
		if err != nil {
			return err
		}
		plans[0] = p
	}
	return nil
}

// verdict: clean
// The same, freeing the old plan's buffers first.
func h14PeerPlanReplacedAfterFree(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			p.send.Free()
			p.recv.Free()
		}
	}()
	for i := 0; i < peers; i++ {
		p, err := allocPeerPlan(d, n)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	if len(plans) > 0 {
		p, err := allocPeerPlan(d, 2*n)
		if err != nil {
			return err
		}
		plans[0].send.Free()
		plans[0].recv.Free()
		plans[0] = p
	}
	return nil
}

// verdict: doublefree
// The send buffers are freed after the launches, and again by the
// deferred loop that frees every plan.
func h14PeerPlanSendFreedTwice(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			p.send.Free()
			p.recv.Free()
		}
	}()
	for i := 0; i < peers; i++ {
		p, err := allocPeerPlan(d, n)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	for i := range plans {
		plans[i].send.Free()
	}
	return nil
}

// verdict: clean
// The same, setting each freed field to nil for the deferred loop, which
// skips nil fields.
func h14PeerPlanSendFreedAndCleared(d *device.Device, peers, n int) error {
	var plans []peerPlan
	defer func() {
		for _, p := range plans {
			if p.send != nil {
				p.send.Free()
			}
			p.recv.Free()
		}
	}()
	for i := 0; i < peers; i++ {
		p, err := allocPeerPlan(d, n)
		if err != nil {
			return err
		}
		plans = append(plans, p)
	}
	for i := range plans {
		plans[i].send.Free()
		plans[i].send = nil
	}
	return nil
}
