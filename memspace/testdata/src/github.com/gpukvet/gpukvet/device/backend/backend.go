// Package backend is a stub of github.com/gpukvet/gpukvet/device/backend
// for the calls test: only CPUBlock, the API of the code gpukvet gen
// writes, which kernel code must not reach.
package backend

import "github.com/gpukvet/gpukvet/gpu"

type CPUBlock struct{ p *int }

func (b CPUBlock) Thread(x, y, z int) gpu.Thread { return gpu.Thread{} }
