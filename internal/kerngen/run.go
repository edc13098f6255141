package kerngen

import (
	"errors"
	"fmt"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// Shape is the launch of k over rows input rows: a random program's fixed
// shape, else blocks of up to 64 threads, one thread per row.
func (k Kernel) Shape(rows int) (grid, block int) {
	if k.Block != 0 {
		return k.Grid, k.Block
	}
	block = min(64, rows)
	return (rows + block - 1) / block, block
}

// Run launches k on d with one thread per row and returns every thread's
// results (len(k.Out) per row) and the trap, if the launch trapped.
func (k Kernel) Run(d *device.Device, rows [][3]uint64) (out []uint64, trap *backend.Trap, err error) {
	var cols [3][]uint64
	for _, row := range rows {
		for j := range cols {
			cols[j] = append(cols[j], row[j])
		}
	}
	var bufs []*device.Buffer[uint64]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	args := []any{}
	for _, col := range append(cols[:], make([]uint64, len(rows)*len(k.Out))) {
		b, err := device.Upload(d, col)
		if err != nil {
			return nil, nil, err
		}
		bufs = append(bufs, b)
		args = append(args, b)
	}
	grid, block := k.Shape(len(rows))
	if err := d.Launch(k.Fn, gpu.Dim3{X: grid, Y: 1, Z: 1}, gpu.Dim3{X: block, Y: 1, Z: 1}, args...); err != nil {
		return nil, nil, fmt.Errorf("%s: launch: %w", k.Name, err)
	}
	if err := d.Sync(); err != nil && !errors.As(err, &trap) {
		return nil, nil, fmt.Errorf("%s: %w", k.Name, err)
	}
	out, err = bufs[3].Download()
	return out, trap, err
}
