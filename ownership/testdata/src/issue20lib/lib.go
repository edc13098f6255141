// Package issue20lib is another package's owning type for issue 20's
// cross-package twins: its methods' field effects reach callers as facts.
package issue20lib

import "github.com/gpukvet/gpukvet/device"

// Workspace owns its scratch buffer: Close frees it.
type Workspace struct {
	scratch *device.Buffer[float32]
}

func (w *Workspace) Close() error {
	if w.scratch == nil {
		return nil
	}
	return w.scratch.Free()
}

// New returns a workspace holding a scratch buffer of n elements.
func New(d *device.Device, n int) (*Workspace, error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	return &Workspace{scratch: b}, nil
}

// GrowLeaky replaces the scratch buffer without freeing the old one.
func (w *Workspace) GrowLeaky(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	w.scratch = b
	return nil
}

// Grow frees the old scratch buffer first.
func (w *Workspace) Grow(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	if w.scratch != nil {
		w.scratch.Free()
	}
	w.scratch = b
	return nil
}
