package issue20

import "github.com/gpukvet/gpukvet/device"

// The third round: collections of owning structs released by their Close,
// an element released again after a loop released them all, a collection
// known empty by its length, map keys read twice from one slice element.

func okStagesMapClosedInDeferredLoop(d *device.Device, names []string) error {
	ss := map[string]*Stage{}
	defer func() {
		for _, s := range ss {
			s.Close()
		}
	}()
	for _, n := range names {
		s, err := newStage(d, 8)
		if err != nil {
			return err
		}
		ss[n] = s
	}
	if len(names) > 0 {
		if s, ok := ss[names[0]]; ok {
			s.Close()
			delete(ss, names[0])
		}
	}
	return nil
}

func stagesMapEvictUnclosed(d *device.Device, names []string) error {
	ss := map[string]*Stage{}
	defer func() {
		for _, s := range ss {
			s.Close()
		}
	}()
	for _, n := range names {
		s, err := newStage(d, 8)
		if err != nil {
			return err
		}
		ss[n] = s
	}
	delete(ss, names[0]) // want `the Stage value in ss\[names\[0\]\] is not closed by Close before the entry is deleted at line 46`
	return nil
}

func stageClosedAgainAfterLoop(d *device.Device, n int) error {
	var ss []*Stage
	for i := 0; i < n; i++ {
		s, err := newStage(d, 8)
		if err != nil {
			break
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return nil
	}
	first := ss[0]
	for _, s := range ss {
		s.Close()
	}
	return first.Close() // want `an element of buffers ss is freed twice: Close at line 66, after a loop over buffers ss freed every element`
}

func bufferFreedAgainAfterLoop(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	if len(bufs) < 1 {
		return nil
	}
	for _, b := range bufs {
		b.Free()
	}
	return bufs[0].Free() // want `an element of buffers bufs is freed twice: Free at line 84, after a loop over buffers bufs freed every element`
}

func okEmptyCollectionReturned(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	if len(bufs) == 0 {
		return nil
	}
	freeSlice(bufs)
	return nil
}

func emptyCheckedTheWrongWay(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	if len(bufs) > 0 {
		return nil // want `the buffers held in bufs from line 110 are not freed on the return at line 113`
	}
	freeSlice(bufs)
	return nil
}
