package issue20

import "github.com/gpukvet/gpukvet/device"

// An owned field that holds a buffer, overwritten without freeing that
// buffer first, loses it; freeing it first, taking it out, or storing only
// where the field is nil is correct.

// Stage owns its buffer: Close frees it.
type Stage struct { // want Stage:`ownership: owns fields \[0\], released by Close`
	buf *device.Buffer[float32]
	n   int
}

func (s *Stage) Close() error {
	if s.buf == nil {
		return nil
	}
	return s.buf.Free()
}

// resizeLeaky replaces the buffer without freeing the old one.
func (s *Stage) resizeLeaky(d *device.Device, n int) error { // want resizeLeaky:`ownership: fills \[0\], overwrites fields \[0\] of 0`
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	s.buf, s.n = b, n
	return nil
}

// resize frees the old buffer first.
func (s *Stage) resize(d *device.Device, n int) error { // want resize:`ownership: fills \[0\]`
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	if s.buf != nil {
		s.buf.Free()
	}
	s.buf, s.n = b, n
	return nil
}

// ensure allocates only where the stage has no buffer yet.
func (s *Stage) ensure(d *device.Device, n int) error { // want ensure:`ownership: fills \[0\]`
	if s.buf != nil {
		return nil
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	s.buf = b
	return nil
}

// swap stores b and hands the old buffer back to the caller.
func (s *Stage) swap(b *device.Buffer[float32]) *device.Buffer[float32] { // want swap:`ownership: takes \[1\], fills \[0\]`
	old := s.buf
	s.buf = b
	return old
}

func fieldStoredTwice(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	a, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = a
	b, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	s.buf = b // want `the buffer held in s.buf is not freed before it is overwritten at line 77`
	return nil
}

func fieldReuploadedInLoop(d *device.Device, frames [][]float32) error {
	s := &Stage{}
	defer s.Close()
	for _, f := range frames {
		b, err := device.Upload(d, f)
		if err != nil {
			return err
		}
		s.buf = b // want `the buffer held in s.buf is not freed before it is overwritten at line 89`
	}
	return nil
}

func fieldAssignedFromUploadTwice(d *device.Device, xs, ys []float32) error {
	var s Stage
	defer s.Close()
	var err error
	if s.buf, err = device.Upload(d, xs); err != nil {
		return err
	}
	if s.buf, err = device.Upload(d, ys); err != nil { // want `the buffer held in s.buf is not freed before it is overwritten at line 101`
		return err
	}
	return d.Launch(nil, one, one, s.buf)
}

func fieldNilledWithoutFree(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = b
	s.buf = nil // want `the buffer held in s.buf is not freed before it is overwritten at line 115`
	return nil
}

func fieldResizedTwiceByMethod(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	if err := s.resizeLeaky(d, 8); err != nil {
		return err
	}
	if err := s.resizeLeaky(d, 16); err != nil { // want `the buffer held in s.buf is not freed before a call to resizeLeaky overwrites it at line 125`
		return err
	}
	return d.Launch(nil, one, one, s.buf)
}

func okFieldFreedBeforeStore(d *device.Device, frames [][]float32) error {
	s := &Stage{}
	defer s.Close()
	for _, f := range frames {
		b, err := device.Upload(d, f)
		if err != nil {
			return err
		}
		if s.buf != nil {
			s.buf.Free()
		}
		s.buf = b
		if err := d.Launch(nil, one, one, s.buf); err != nil {
			return err
		}
	}
	return nil
}

func okFieldResizedTwice(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	if err := s.resize(d, 8); err != nil {
		return err
	}
	if err := s.resize(d, 16); err != nil {
		return err
	}
	if err := s.ensure(d, 16); err != nil {
		return err
	}
	return d.Launch(nil, one, one, s.buf)
}

func okFieldSwappedOut(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	a, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = a
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	old := s.swap(b)
	return old.Free()
}

func okFieldHandedOnThenStored(d *device.Device, keep func(*device.Buffer[float32])) error {
	s := &Stage{}
	defer s.Close()
	a, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = a
	keep(s.buf)
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = b
	return nil
}

func okFieldFreedThenRefilled(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	a, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = a
	if err := d.Launch(nil, one, one, s.buf); err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf.Free()
	s.buf = b
	return nil
}

func okFieldFreedThenNilled(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	s.buf = b
	s.buf.Free()
	s.buf = nil
	return nil
}
