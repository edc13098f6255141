// Package wrapped uses buffers only through package lib: it does not
// import device.
package wrapped

import "lib"

func leak() error {
	d, err := lib.Open()
	if err != nil {
		return err
	}
	b, err := lib.NewBuf(d, 4)
	if err != nil {
		return err
	}
	_ = b.Len()
	return nil // want `buffer from lib.NewBuf at line 12 is not freed on the return at line 17`
}

func ok() error {
	d, err := lib.Open()
	if err != nil {
		return err
	}
	b, err := lib.NewBuf(d, 4)
	if err != nil {
		return err
	}
	defer b.Free()
	return nil
}

func useAfterFree() {
	d, _ := lib.Open()
	h, err := lib.NewHolder(d)
	if err != nil {
		return
	}
	h.Close()
	h.Close() // want `Holder value h is freed twice: Close at line 40 after Close at line 39`
}
