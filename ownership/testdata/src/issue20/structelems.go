package issue20

import "github.com/gpukvet/gpukvet/device"

// Collections of plain structs holding buffers (no release method): a
// slice or map of them holds the buffers put into their fields, and is
// freed by a loop that frees every buffer field of each element.

type gpuPlan struct {
	a, b *device.Buffer[float32]
}

type luPanel struct {
	x, y *device.Buffer[float32]
}

type mgpuPlan struct {
	id    int
	panel luPanel
	work  *device.Buffer[float32]
}

func newBufPair(d *device.Device) (a, b *device.Buffer[float32], err error) { // want newBufPair:`ownership: returns new \[0 1\]`
	a, err = device.Alloc[float32](d, 8)
	if err != nil {
		return nil, nil, err
	}
	b, err = device.Alloc[float32](d, 8)
	if err != nil {
		a.Free()
		return nil, nil, err
	}
	return a, b, nil
}

func freeGpuPlans(ps []gpuPlan) { // want freeGpuPlans:`ownership: frees \[0\], takes \[0\]`
	for _, p := range ps {
		p.a.Free()
		p.b.Free()
	}
}

func freeGpuPlansA(ps []gpuPlan) {
	for _, p := range ps {
		p.a.Free()
	}
}

// Correct spellings: silent.

func okPlansAppendedLiteral(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			p.b.Free()
			p.a.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a: a, b: b})
	}
	return nil
}

func okPlansFilledByIndex(d *device.Device, n int) error {
	plans := make([]gpuPlan, n)
	defer func() {
		for i := range plans {
			if plans[i].a != nil {
				plans[i].a.Free()
			}
			if plans[i].b != nil {
				plans[i].b.Free()
			}
		}
	}()
	for i := range plans {
		var err error
		if plans[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
		if plans[i].b, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
	}
	return nil
}

func okPlansCountedLoop(d *device.Device, n int) error {
	var plans []gpuPlan
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			break
		}
		plans = append(plans, gpuPlan{a, b})
	}
	for j := 0; j < len(plans); j++ {
		plans[j].a.Free()
		plans[j].b.Free()
	}
	return nil
}

func okPlansMap(d *device.Device, names []string) error {
	m := map[string]gpuPlan{}
	defer func() {
		for _, p := range m {
			p.a.Free()
			p.b.Free()
		}
	}()
	for _, name := range names {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		m[name] = gpuPlan{a: a, b: b}
	}
	return nil
}

func okPlansMapDeleteAfterFree(d *device.Device, names []string) error {
	m := map[string]gpuPlan{}
	defer func() {
		for _, p := range m {
			p.a.Free()
			p.b.Free()
		}
	}()
	for _, name := range names {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		m[name] = gpuPlan{a: a, b: b}
	}
	for name, p := range m {
		p.a.Free()
		p.b.Free()
		delete(m, name)
	}
	return nil
}

func okNestedPlans(d *device.Device, n int) error {
	var plans []mgpuPlan
	defer func() {
		for _, p := range plans {
			p.panel.x.Free()
			p.panel.y.Free()
			p.work.Free()
		}
	}()
	for i := 0; i < n; i++ {
		x, y, err := newBufPair(d)
		if err != nil {
			return err
		}
		w, err := device.Alloc[float32](d, 8)
		if err != nil {
			x.Free()
			y.Free()
			return err
		}
		plans = append(plans, mgpuPlan{id: i, panel: luPanel{x: x, y: y}, work: w})
	}
	return nil
}

func okPlansHelper(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() { freeGpuPlans(plans) }()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	return nil
}

func okPlansPopped(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() { freeGpuPlans(plans) }()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	if len(plans) > 1 {
		last := plans[len(plans)-1]
		plans = plans[:len(plans)-1]
		last.a.Free()
		last.b.Free()
	}
	return nil
}

// Leaks.

func plansFieldNeverFreed(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			p.a.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err // want `the buffers held in plans from line 210 are not freed on the return at line 219`
		}
		plans = append(plans, gpuPlan{a: a, b: b})
	}
	return nil // want `the buffers held in plans from line 210 are not freed on the return at line 223`
}

func plansIndexedLoopMissesField(d *device.Device, n int) error {
	plans := make([]gpuPlan, n)
	for i := range plans {
		var err error
		if plans[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err // want `the buffers held in plans from line 227 are not freed on the return at line 231`
		}
		if plans[i].b, err = device.Alloc[float32](d, 8); err != nil {
			return err // want `the buffers held in plans from line 227 are not freed on the return at line 234`
		}
	}
	for i := range plans {
		plans[i].b.Free()
	}
	return nil // want `the buffers held in plans from line 227 are not freed on the return at line 240`
}

func plansHelperFreesOneField(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() { freeGpuPlansA(plans) }()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err // want `the buffers held in plans from line 244 are not freed on the return at line 249`
		}
		plans = append(plans, gpuPlan{a, b})
	}
	return nil // want `the buffers held in plans from line 244 are not freed on the return at line 253`
}

func plansMapEntryDeleted(d *device.Device, names []string) error {
	m := map[string]gpuPlan{}
	defer func() {
		for _, p := range m {
			p.a.Free()
			p.b.Free()
		}
	}()
	for _, name := range names {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		m[name] = gpuPlan{a: a, b: b}
	}
	for _, name := range names[1:] {
		delete(m, name) // want `the buffers of the gpuPlan value in m\[name\] are not freed before the entry is deleted at line 272`
	}
	return nil
}

func plansCutShort(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() { freeGpuPlans(plans) }()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	if len(plans) > 2 {
		plans = plans[:2] // want `the buffers held in plans from line 278 are not freed before the slice is cut short at line 288: the elements past the cut are dropped`
	}
	return nil
}

func plansLoopSkipsFirst(d *device.Device, n int) error {
	var plans []gpuPlan
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			break
		}
		plans = append(plans, gpuPlan{a, b})
	}
	for j := 1; j < len(plans); j++ {
		plans[j].a.Free()
		plans[j].b.Free()
	}
	return nil // want `the buffers held in plans from line 300 are not freed on the return at line 306`
}

func nestedFieldNeverFreed(d *device.Device, n int) error {
	var plans []mgpuPlan
	defer func() {
		for _, p := range plans {
			p.panel.x.Free()
			p.work.Free()
		}
	}()
	for i := 0; i < n; i++ {
		x, y, err := newBufPair(d)
		if err != nil {
			return err // want `the buffers held in plans from line 310 are not freed on the return at line 320`
		}
		w, err := device.Alloc[float32](d, 8)
		if err != nil {
			x.Free()
			y.Free()
			return err // want `the buffers held in plans from line 310 are not freed on the return at line 326`
		}
		plans = append(plans, mgpuPlan{id: i, panel: luPanel{x: x, y: y}, work: w})
	}
	return nil // want `the buffers held in plans from line 310 are not freed on the return at line 330`
}

// Pointers to struct literals kept in a slice, and an element's field
// overwritten.

func okPlanPointers(d *device.Device, n int) error {
	var plans []*gpuPlan
	defer func() {
		for _, p := range plans {
			p.a.Free()
			p.b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, &gpuPlan{a: a, b: b})
	}
	return nil
}

func okElemFieldFreedThenReplaced(d *device.Device, n int) error {
	var plans []*gpuPlan
	defer func() {
		for _, p := range plans {
			p.a.Free()
			p.b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, &gpuPlan{a: a, b: b})
	}
	if len(plans) == 0 {
		return nil
	}
	big, err := device.Alloc[float32](d, 64)
	if err != nil {
		return err
	}
	plans[0].b.Free()
	plans[0].b = big
	return nil
}

func okElemFieldFilledLater(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			if p.a != nil {
				p.a.Free()
			}
			if p.b != nil {
				p.b.Free()
			}
		}
	}()
	for i := 0; i < n; i++ {
		a, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a: a})
	}
	for i := range plans {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		plans[i].b = b
	}
	return nil
}

func elemFieldOverwritten(d *device.Device, n int) error {
	var plans []*gpuPlan
	defer func() {
		for _, p := range plans {
			p.a.Free()
			p.b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, &gpuPlan{a: a, b: b})
	}
	if len(plans) == 0 {
		return nil
	}
	big, err := device.Alloc[float32](d, 64)
	if err != nil {
		return err
	}
	plans[0].b = big // want `the buffer held in plans\[0\].b is not freed before it is overwritten at line 432`
	return nil
}

func valueElemFieldOverwrittenInLoop(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			p.a.Free()
			p.b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	for i := range plans {
		a, err := device.Alloc[float32](d, 16)
		if err != nil {
			return err
		}
		plans[i].a = a // want `the buffer held in plans\[i\].a is not freed before it is overwritten at line 456`
	}
	return nil
}

// Arrays of structs filled in place, and a second loop over the same
// elements that stores into the same field.

const maxDevs = 4

// devBuf is one device's scratch buffer.
type devBuf struct {
	a *device.Buffer[float32]
}

func okDevArray(d *device.Device, n int) error {
	if n > maxDevs {
		n = maxDevs
	}
	var devs [maxDevs]gpuPlan
	release := func() {
		for i := range devs {
			if devs[i].a != nil {
				devs[i].a.Free()
			}
			if devs[i].b != nil {
				devs[i].b.Free()
			}
		}
	}
	for i := 0; i < n; i++ {
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 8); err != nil {
			release()
			return err
		}
		if devs[i].b, err = device.Alloc[float32](d, 8); err != nil {
			release()
			return err
		}
	}
	release()
	return nil
}

func okDevArrayRefillAfterFree(d *device.Device, n int) error {
	if n > maxDevs {
		n = maxDevs
	}
	var devs [maxDevs]devBuf
	defer func() {
		for i := range devs {
			if devs[i].a != nil {
				devs[i].a.Free()
			}
		}
	}()
	for i := 0; i < n; i++ {
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		devs[i].a.Free()
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 16); err != nil {
			return err
		}
	}
	return nil
}

func okDevArrayOtherField(d *device.Device, n int) error {
	if n > maxDevs {
		n = maxDevs
	}
	var devs [maxDevs]gpuPlan
	defer func() {
		for i := range devs {
			if devs[i].a != nil {
				devs[i].a.Free()
			}
			if devs[i].b != nil {
				devs[i].b.Free()
			}
		}
	}()
	for i := 0; i < n; i++ {
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		var err error
		if devs[i].b, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
	}
	return nil
}

func devArrayFieldNeverFreed(d *device.Device, n int) error {
	if n > maxDevs {
		n = maxDevs
	}
	var devs [maxDevs]gpuPlan
	for i := 0; i < n; i++ {
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err // want `the buffers held in devs from line 563 are not freed on the return at line 567`
		}
		if devs[i].b, err = device.Alloc[float32](d, 8); err != nil {
			return err // want `the buffers held in devs from line 563 are not freed on the return at line 570`
		}
	}
	for i := range devs {
		if devs[i].a != nil {
			devs[i].a.Free()
		}
	}
	return nil // want `the buffers held in devs from line 563 are not freed on the return at line 578`
}

func devArrayRefilled(d *device.Device, n int) error {
	if n > maxDevs {
		n = maxDevs
	}
	var devs [maxDevs]devBuf
	defer func() {
		for i := range devs {
			if devs[i].a != nil {
				devs[i].a.Free()
			}
		}
	}()
	for i := 0; i < n; i++ {
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		var err error
		if devs[i].a, err = device.Alloc[float32](d, 16); err != nil { // want `the buffer held in devs\[i\].a is not freed before it is overwritten at line 601`
			return err
		}
	}
	return nil
}

func sliceRefilledByIndex(d *device.Device, n int) error {
	plans := make([]devBuf, n)
	defer func() {
		for _, p := range plans {
			if p.a != nil {
				p.a.Free()
			}
		}
	}()
	for i := range plans {
		var err error
		if plans[i].a, err = device.Alloc[float32](d, 8); err != nil {
			return err
		}
	}
	for i := range plans {
		var err error
		if plans[i].a, err = device.Alloc[float32](d, 16); err != nil { // want `the buffer held in plans\[i\].a is not freed before it is overwritten at line 625`
			return err
		}
	}
	return nil
}

// A table of cases may hold a freed buffer on purpose: putting it there is
// not a use.
func okTableHoldsFreedBuffer(d *device.Device) (int, error) {
	freed, err := device.Alloc[float32](d, 4)
	if err != nil {
		return 0, err
	}
	freed.Free()
	cases := []struct {
		what string
		b    *device.Buffer[float32]
	}{
		{"nil", nil},
		{"freed", freed},
	}
	n := 0
	for _, c := range cases {
		if c.b == nil {
			n++
		}
	}
	return n, nil
}

// Freed through a method or a function of the package that frees the
// fields of its struct parameter, and structs holding a slice of buffers.

func (p *gpuPlan) destroy() {
	p.a.Free()
	p.b.Free()
}

func (p *gpuPlan) destroyA() {
	p.a.Free()
}

func freeGpuPlan(p gpuPlan) {
	p.a.Free()
	p.b.Free()
}

func freeLuPanel(p luPanel) {
	p.x.Free()
	p.y.Free()
}

func okPlansDestroyMethod(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for i := range plans {
			plans[i].destroy()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	return nil
}

func okPlansFreedByFunc(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			freeGpuPlan(p)
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	return nil
}

func okNestedFreedByFunc(d *device.Device, n int) error {
	var plans []mgpuPlan
	defer func() {
		for _, p := range plans {
			freeLuPanel(p.panel)
			p.work.Free()
		}
	}()
	for i := 0; i < n; i++ {
		x, y, err := newBufPair(d)
		if err != nil {
			return err
		}
		w, err := device.Alloc[float32](d, 8)
		if err != nil {
			x.Free()
			y.Free()
			return err
		}
		plans = append(plans, mgpuPlan{id: i, panel: luPanel{x: x, y: y}, work: w})
	}
	return nil
}

type stagingCtx struct {
	id   int
	bufs []*device.Buffer[float32]
}

func okCtxSlices(d *device.Device, n int) error {
	var ctxs []stagingCtx
	defer func() {
		for _, c := range ctxs {
			for _, b := range c.bufs {
				b.Free()
			}
		}
	}()
	for i := 0; i < n; i++ {
		var bufs []*device.Buffer[float32]
		for j := 0; j < 2; j++ {
			b, err := device.Alloc[float32](d, 8)
			if err != nil {
				for _, x := range bufs {
					x.Free()
				}
				return err
			}
			bufs = append(bufs, b)
		}
		ctxs = append(ctxs, stagingCtx{id: i, bufs: bufs})
	}
	return nil
}

func plansDestroyMissesField(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for i := range plans {
			plans[i].destroyA()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err // want `the buffers held in plans from line 768 are not freed on the return at line 777`
		}
		plans = append(plans, gpuPlan{a, b})
	}
	return nil // want `the buffers held in plans from line 768 are not freed on the return at line 781`
}

func ctxSlicesNeverFreed(d *device.Device, n int) error {
	var ctxs []stagingCtx
	for i := 0; i < n; i++ {
		var bufs []*device.Buffer[float32]
		for j := 0; j < 2; j++ {
			b, err := device.Alloc[float32](d, 8)
			if err != nil {
				for _, x := range bufs {
					x.Free()
				}
				return err // want `the buffers held in ctxs from line 798 are not freed on the return at line 794`
			}
			bufs = append(bufs, b)
		}
		ctxs = append(ctxs, stagingCtx{id: i, bufs: bufs})
	}
	for _, c := range ctxs {
		_ = c.id
	}
	return nil // want `the buffers held in ctxs from line 798 are not freed on the return at line 803`
}

// Buffers freed through the variables they were put into a collection
// from: the collection holds nothing left to free.

func okFreedThroughVars(d *device.Device) error {
	a, b, err := newBufPair(d)
	if err != nil {
		return err
	}
	var plans []gpuPlan
	plans = append(plans, gpuPlan{a, b})
	err = d.Launch(nil, one, one, plans[0].a, plans[0].b)
	a.Free()
	b.Free()
	return err
}

func okBufsFreedThroughVars(d *device.Device) error {
	a, b, err := newBufPair(d)
	if err != nil {
		return err
	}
	bufs := []*device.Buffer[float32]{}
	bufs = append(bufs, a, b)
	err = d.Launch(nil, one, one, bufs[0], bufs[1])
	a.Free()
	b.Free()
	return err
}

func oneVarNotFreed(d *device.Device) error {
	a, b, err := newBufPair(d)
	if err != nil {
		return err
	}
	var plans []gpuPlan
	plans = append(plans, gpuPlan{a, b})
	err = d.Launch(nil, one, one, plans[0].a, plans[0].b)
	a.Free()
	return err // want `the buffers held in plans from line 841 are not freed on the return at line 844`
}

// An element replaced whole, and an element's field freed while a deferred
// loop frees every element.

func okElemReplacedAfterFree(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() { freeGpuPlans(plans) }()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	if len(plans) > 0 {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans[0].a.Free()
		plans[0].b.Free()
		plans[0] = gpuPlan{a, b}
	}
	return nil
}

func okFieldFreedAndCleared(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			if p.a != nil {
				p.a.Free()
			}
			p.b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	for i := range plans {
		plans[i].a.Free()
		plans[i].a = nil
	}
	return nil
}

func elemReplacedWhole(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() { freeGpuPlans(plans) }()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	if len(plans) > 0 {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans[0] = gpuPlan{a, b} // want `the buffers held in plans\[0\] are not freed before it is overwritten at line 911`
	}
	return nil
}

func fieldFreedTwice(d *device.Device, n int) error {
	var plans []gpuPlan
	defer func() {
		for _, p := range plans {
			p.a.Free()
			p.b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		a, b, err := newBufPair(d)
		if err != nil {
			return err
		}
		plans = append(plans, gpuPlan{a, b})
	}
	for _, p := range plans {
		p.a.Free() // want `an element of buffers plans is freed twice: Free at line 932, and again by the deferred call at line 918 that frees every element of buffers plans`
	}
	return nil
}
