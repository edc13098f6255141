package cuda

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
)

// kernelParams lays out a launch's arguments as cuLaunchKernel takes them: an
// array of pointers, one per PTX parameter, each to that parameter's bytes.
// The layout is the codegen's PTX ABI: scalars at their natural size; a slice
// as two parameters, a .u64 device pointer and an .s64 length; a struct by
// value as its bytes in Go's layout; last, the hidden trap-record pointer.
type kernelParams struct {
	cells []uint64         // backing store, 8-byte aligned
	ptrs  []unsafe.Pointer // what cuLaunchKernel's kernelParams points to
	sizes []int            // each parameter's size in bytes
}

// read returns the bits of size bytes at offset off of PTX parameter i,
// little-endian and zero-extended, or false when they are not all inside
// the parameter: the reader launch facts evaluate (gpuabi.Facts.Eval).
func (p *kernelParams) read(i, off, size int) (uint64, bool) {
	if i < 0 || i >= len(p.ptrs) || off < 0 || size < 1 || size > 8 || off > p.sizes[i]-size {
		return 0, false
	}
	var v uint64
	b := unsafe.Slice((*byte)(p.ptrs[i]), p.sizes[i])
	for j := size - 1; j >= 0; j-- {
		v = v<<8 | uint64(b[off+j])
	}
	return v, true
}

func marshalParams(k *backend.Kernel, args []backend.Arg, trap uintptr) (*kernelParams, error) {
	if len(args) != len(k.Params) {
		return nil, fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(args))
	}
	// First pass: the size in bytes of each PTX parameter; each takes
	// that many bytes of 8-byte cells, at least one.
	var sizes []int
	for i, t := range k.Params {
		switch {
		case t.Kind() == reflect.Slice:
			sizes = append(sizes, 8, 8)
		case t.Kind() == reflect.Struct:
			sizes = append(sizes, int(t.Size()))
		default:
			if !backend.ScalarKind(t.Kind()) {
				return nil, fmt.Errorf("kernel %s: parameter %d has type %v, which the cuda backend cannot pass", k.Name, i+1, t)
			}
			sizes = append(sizes, int(t.Size()))
		}
	}
	sizes = append(sizes, 8) // trap record pointer
	total := 0
	for _, s := range sizes {
		total += max((s+7)/8, 1)
	}
	p := &kernelParams{cells: make([]uint64, total), ptrs: make([]unsafe.Pointer, 0, len(sizes)), sizes: sizes}
	next := 0
	cell := func(n int) []uint64 {
		c := p.cells[next : next+max(n, 1)]
		p.ptrs = append(p.ptrs, unsafe.Pointer(&c[0]))
		next += max(n, 1)
		return c
	}
	for i, t := range k.Params {
		a := args[i]
		switch t.Kind() {
		case reflect.Slice:
			m, err := backend.Own[*memory](a.Mem, "cuda", fmt.Sprintf("kernel %s, argument %d", k.Name, i+1))
			if err != nil {
				return nil, err
			}
			cell(1)[0] = uint64(m.ptr)
			cell(1)[0] = uint64(m.n)
		case reflect.Struct:
			c := cell(int(t.Size()+7) / 8)
			v := reflect.New(t).Elem()
			v.Set(a.Value)
			src := unsafe.Slice((*byte)(v.Addr().UnsafePointer()), t.Size())
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&c[0])), len(c)*8), src)
		default:
			cell(1)[0] = scalarBits(a.Value)
		}
	}
	cell(1)[0] = uint64(trap)
	return p, nil
}

// scalarBits is v's bytes at its natural size, little-endian in a cell (the
// driver copies only the parameter's own size from the cell's start).
func scalarBits(v reflect.Value) uint64 {
	var b [8]byte
	le := binary.LittleEndian
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			b[0] = 1
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		le.PutUint64(b[:], uint64(v.Int())) // two's complement: the low bytes are the narrow value
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		le.PutUint64(b[:], v.Uint())
	case reflect.Float32:
		le.PutUint32(b[:], math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		le.PutUint64(b[:], math.Float64bits(v.Float()))
	}
	return le.Uint64(b[:])
}
