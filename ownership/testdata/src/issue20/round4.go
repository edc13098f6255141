package issue20

import "github.com/gpukvet/gpukvet/device"

// The fourth round: a struct filled by a method that failed holds nothing,
// and a loop that sends every element of a map on hands them all on.

func okFreshStageFillFailed(d *device.Device) error {
	s := &Stage{}
	if err := s.ensure(d, 8); err != nil {
		return err
	}
	defer s.Close()
	return d.Launch(nil, one, one, s.buf)
}

func freshStageFilledTwice(d *device.Device) error {
	s := &Stage{}
	defer s.Close()
	if err := s.resizeLeaky(d, 8); err != nil {
		return err
	}
	return s.resizeLeaky(d, 16) // want `the buffer held in s.buf is not freed before a call to resizeLeaky overwrites it at line 23`
}

func okDrainMapToChannel(d *device.Device, names []string, out chan<- *device.Buffer[float32]) error {
	m := map[string]*device.Buffer[float32]{}
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			freeMap(m)
			return err
		}
		m[n] = b
	}
	for k, b := range m {
		out <- b
		delete(m, k)
	}
	return nil
}
