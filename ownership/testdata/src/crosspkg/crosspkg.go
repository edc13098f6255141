package crosspkg

import (
	"lib"

	"github.com/gpukvet/gpukvet/device"
)

func okRelease(d *device.Device) error {
	b, err := lib.NewBuf(d, 4)
	if err != nil {
		return err
	}
	_ = lib.Sum(b)
	lib.Release(b)
	return nil
}

func okKeep(d *device.Device) {
	b, err := lib.NewBuf(d, 4)
	if err != nil {
		return
	}
	lib.Keep(b)
}

func leakSum(d *device.Device) float32 {
	b, err := lib.NewBuf(d, 4)
	if err != nil {
		return 0
	}
	return lib.Sum(b) // want `buffer from lib.NewBuf at line 28 is not freed on the return at line 32`
}

func useAfterRelease(d *device.Device) float32 {
	b, err := lib.NewBuf(d, 4)
	if err != nil {
		return 0
	}
	lib.ReleaseVia(b)
	return lib.Sum(b) // want `buffer b is used by a call to Sum at line 41 after a call to ReleaseVia freed it at line 40`
}

func leakHolder(d *device.Device) {
	h, err := lib.NewHolder(d)
	if err != nil {
		return
	}
	_ = h
} // want `Holder value from lib.NewHolder at line 45 is not closed by Close before the function ends at line 50`

func okHolder(d *device.Device) error {
	h, err := lib.NewHolder(d)
	if err != nil {
		return err
	}
	return h.Close()
}
