package issue20

import "github.com/gpukvet/gpukvet/device"

// The second round of issue 20's held-out programs: a ping-pong loop that
// frees the old input, map entries freed and then deleted, maps and slices
// emptied with or without their Frees.

func okPingPongFreesOld(d *device.Device, xs []float32, iters int) ([]float32, error) {
	in, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	for i := 0; i < iters; i++ {
		out, err := device.Alloc[float32](d, len(xs))
		if err != nil {
			in.Free()
			return nil, err
		}
		if err := d.Launch(nil, one, one, in, out); err != nil {
			in.Free()
			out.Free()
			return nil, err
		}
		in.Free()
		in = out
	}
	defer in.Free()
	return in.Download()
}

func okEntryFreedThroughVariableThenDeleted(d *device.Device) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer freeMap(bufs)
	tmp, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	bufs["tmp"] = tmp
	if err := d.Launch(nil, one, one, tmp); err != nil {
		return err
	}
	tmp.Free()
	delete(bufs, "tmp")
	return nil
}

func okEntryFreedThroughLookupThenDeleted(d *device.Device) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	bufs["phi"] = b
	bufs["phi"].Free()
	delete(bufs, "phi")
	return nil
}

func mapClearedWithoutFree(d *device.Device, names []string) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer freeMap(bufs)
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		bufs[n] = b
	}
	clear(bufs) // want `the buffers held in bufs from line 66 are not freed before clear at line 75`
	return nil
}

func okMapFreedThenCleared(d *device.Device, names []string) error {
	bufs := map[string]*device.Buffer[float32]{}
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			freeMap(bufs)
			return err
		}
		bufs[n] = b
	}
	for _, b := range bufs {
		b.Free()
	}
	clear(bufs)
	return nil
}

func sliceTruncatedWithoutFree(d *device.Device, iters int) error {
	var tmp []*device.Buffer[float32]
	defer func() { freeSlice(tmp) }()
	for it := 0; it < iters; it++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		tmp = append(tmp, b)
		tmp = tmp[:0] // want `the buffers held in tmp from line 97 are not freed before the slice is cut to nothing at line 105`
	}
	return nil
}

func okSliceTruncatedAfterFree(d *device.Device, iters int) error {
	var tmp []*device.Buffer[float32]
	for it := 0; it < iters; it++ {
		for k := 0; k < 4; k++ {
			b, err := device.Alloc[float32](d, 8)
			if err != nil {
				freeSlice(tmp)
				return err
			}
			tmp = append(tmp, b)
		}
		for _, b := range tmp {
			b.Free()
		}
		tmp = tmp[:0]
	}
	return nil
}

func okSliceFilteredInPlace(d *device.Device, n int, keep func(int) bool) error {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			freeSlice(bufs)
			return err
		}
		bufs = append(bufs, b)
	}
	kept := bufs[:0]
	for i, b := range bufs {
		if keep(i) {
			kept = append(kept, b)
		} else {
			b.Free()
		}
	}
	freeSlice(kept)
	return nil
}

// newStage returns a stage holding a new buffer (a constructor).
func newStage(d *device.Device, n int) (*Stage, error) { // want newStage:`ownership: returns new \[0\]`
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	return &Stage{buf: b, n: n}, nil
}

func stageVariableReplacedInLoop(d *device.Device, sizes []int) error {
	var s *Stage
	defer func() {
		if s != nil {
			s.Close()
		}
	}()
	for _, n := range sizes {
		ns, err := newStage(d, n) // want `Stage value from newStage at line 168 is not closed by Close before it is allocated again at line 168`
		if err != nil {
			return err
		}
		s = ns
	}
	return nil
}

func okStageVariableClosedAndReplaced(d *device.Device, sizes []int) error {
	var s *Stage
	defer func() {
		if s != nil {
			s.Close()
		}
	}()
	for _, n := range sizes {
		if s != nil {
			s.Close()
			s = nil
		}
		ns, err := newStage(d, n)
		if err != nil {
			return err
		}
		s = ns
	}
	return nil
}

func stageFromConstructorResizedLeaky(d *device.Device) error {
	s, err := newStage(d, 8)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.resizeLeaky(d, 16) // want `the buffer held in s.buf is not freed before a call to resizeLeaky overwrites it at line 204`
}

func okStageFromConstructorResized(d *device.Device) error {
	s, err := newStage(d, 8)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.resize(d, 16)
}

func bufferSharedByTwoStages(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s := &Stage{buf: b}
	t := &Stage{buf: b}
	s.Close()
	return t.Close() // want `buffer b is freed twice: Close of Stage value t at line 224 after Close of Stage value s freed it at line 223`
}

func okBufferMovedBetweenStages(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s := &Stage{buf: b}
	t := &Stage{buf: b}
	s.buf = nil
	s.Close()
	return t.Close()
}
