package issue20

import "github.com/gpukvet/gpukvet/device"

// Stores into an owned field that do not lose a buffer: a retry after the
// allocation failed (the field holds nil), and buffers a deferred Free
// releases (the struct only refers to them).

func okFieldRetriedAfterFailure(d *device.Device, xs []float32) error {
	s := &Stage{}
	defer s.Close()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		s.buf, err = device.Upload(d, xs)
		if err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	return d.Launch(nil, one, one, s.buf)
}

func okFieldRefersToDeferredBuffers(d *device.Device, frames [][]float32) error {
	s := &Stage{}
	for _, f := range frames {
		b, err := device.Upload(d, f)
		if err != nil {
			return err
		}
		defer b.Free()
		s.buf = b
		if err := d.Launch(nil, one, one, s.buf); err != nil {
			return err
		}
	}
	return nil
}
