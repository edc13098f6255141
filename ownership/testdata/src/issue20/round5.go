package issue20

import "github.com/gpukvet/gpukvet/device"

// The fifth round: a buffer field of a struct without a release method
// overwritten after the function found it non-nil (a "grow if too small"
// helper), and a Free of a ping-pong variable, which is one of two
// buffers that deferred Frees release at exit.

// scratch grows on demand; it has no Close: its owner frees scratch.buf.
type scratch struct {
	d   *device.Device
	buf *device.Buffer[float32]
	aux *device.Buffer[float32]
	n   int
}

func (s *scratch) growLeaky(n int) error {
	if s.buf != nil && s.buf.Len() >= n {
		return nil
	}
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	s.buf = b // want `the buffer held in s.buf is not freed before it is overwritten at line 26`
	return nil
}

func (s *scratch) growLeakyEq(n int) error {
	if s.buf == nil || s.buf.Len() < n {
		b, err := device.Alloc[float32](s.d, n)
		if err != nil {
			return err
		}
		s.buf = b // want `the buffer held in s.buf is not freed before it is overwritten at line 36`
	}
	return nil
}

func growLeakyParam(s *scratch, xs []float32) error {
	if s.buf != nil {
		s.n++
	}
	b, err := device.Upload(s.d, xs)
	if err != nil {
		return err
	}
	s.buf = b // want `the buffer held in s.buf is not freed before it is overwritten at line 49`
	return nil
}

// The struct reached through another's field.
type holder struct {
	ws *scratch
}

func (h *holder) growInnerLeaky(n int) error {
	ws := h.ws
	if ws.buf != nil && ws.buf.Len() >= n {
		return nil
	}
	b, err := device.Alloc[float32](ws.d, n)
	if err != nil {
		return err
	}
	ws.buf = b // want `the buffer held in field buf of a scratch is not freed before it is overwritten at line 67`
	return nil
}

func (s *scratch) okGrowFreeOld(n int) error {
	if s.buf != nil && s.buf.Len() >= n {
		return nil
	}
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	if s.buf != nil {
		s.buf.Free()
	}
	s.buf = b
	return nil
}

func (s *scratch) okGrowFreeInBranch(n int) error {
	if s.buf != nil {
		if s.buf.Len() >= n {
			return nil
		}
		s.buf.Free()
	}
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	s.buf = b
	return nil
}

// The old buffer handed on (to a channel, or returned): not a leak.
func (s *scratch) okGrowHandsOldOn(n int, retired chan<- *device.Buffer[float32]) error {
	if s.buf != nil && s.buf.Len() >= n {
		return nil
	}
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	if s.buf != nil {
		retired <- s.buf
	}
	s.buf = b
	return nil
}

func (s *scratch) okSwapReturnsOld(n int) (*device.Buffer[float32], error) {
	if s.buf != nil && s.buf.Len() >= n {
		return nil, nil
	}
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return nil, err
	}
	old := s.buf
	s.buf = b
	return old, nil
}

// Storing without having looked at the field: the function does not know
// whether it held a buffer (an initializer), so nothing is said.
func (s *scratch) okInit(n int) error {
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	s.buf = b
	return nil
}

// Each time round, a different struct: the one found non-nil on the
// previous iteration is not the one stored into.
func okEachStructOnce(d *device.Device, ws []*scratch) (int, error) {
	kept := 0
	for _, w := range ws {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return kept, err
		}
		w.aux = b
		if w.aux != nil {
			kept++
		}
	}
	return kept, nil
}

// The old buffer released by a method of the package before the store.
func (s *scratch) release() {
	if s.buf != nil {
		s.buf.Free()
		s.buf = nil
	}
	if s.aux != nil {
		s.aux.Free()
	}
}

// The field tested is not the one stored into.
func (s *scratch) okOtherFieldTested(n int) error {
	if s.buf != nil {
		s.n++
	}
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	s.aux = b
	return nil
}

func (s *scratch) okGrowViaRelease(n int) error {
	if s.buf != nil && s.buf.Len() >= n {
		return nil
	}
	s.release()
	b, err := device.Alloc[float32](s.d, n)
	if err != nil {
		return err
	}
	s.buf = b
	return nil
}

// view refers to buffers it does not own: nothing in the package frees
// through view.in, so retargeting it loses nothing.
type view struct {
	in *device.Buffer[float32]
}

func (v *view) okRetarget(d *device.Device, b *device.Buffer[float32]) error { // want okRetarget:"ownership: takes \\[2\\]"
	if v.in != nil {
		if err := d.Launch(nil, one, one, v.in); err != nil {
			return err
		}
	}
	v.in = b
	return nil
}

func pingPongFreeResult(d *device.Device, xs []float32, iters int) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer a.Free()
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	defer b.Free()
	src, dst := a, b
	for range iters {
		if err := d.Launch(nil, one, one, src, dst); err != nil {
			return nil, err
		}
		src, dst = dst, src
	}
	out, err := src.Download()
	src.Free() // want `buffer a or buffer b is freed twice: Free at line 230 frees one of them, and the deferred Frees at lines 216 and 221 free each again`
	return out, err
}

func pickedFreedTwice(d *device.Device, xs []float32, left bool) error {
	a, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer a.Free()
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	defer b.Free()
	pick := b
	if left {
		pick = a
	}
	if err := d.Launch(nil, one, one, pick); err != nil {
		return err
	}
	return pick.Free() // want `freed twice`
}

func okPingPong(d *device.Device, xs []float32, iters int) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer a.Free()
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	defer b.Free()
	src, dst := a, b
	for range iters {
		if err := d.Launch(nil, one, one, src, dst); err != nil {
			return nil, err
		}
		src, dst = dst, src
	}
	return src.Download()
}

// Neither is released by a defer: the picked one and the other are each
// freed once by hand.
func okPickFreeBoth(d *device.Device, xs []float32, left bool) error {
	a, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	b, err := device.Upload(d, xs)
	if err != nil {
		a.Free()
		return err
	}
	pick, other := a, b
	if left {
		pick, other = b, a
	}
	err = d.Launch(nil, one, one, pick)
	pick.Free()
	other.Free()
	return err
}
