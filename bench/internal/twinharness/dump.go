package twinharness

import (
	"bufio"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// DumpTwins writes, for every case of cases at its checking size, the
// nvcc twin's launch and parameters and the cpu backend's outputs to
// $GPUKVET_TWINS_DUMP/<name>.bin, for cuemu/run.sh to run the twins of
// twins.cu on the host and compare them with the Go kernels without a GPU.
// Without the variable it skips t.
//
// The format, little-endian: grid and block (6 int32), the relative
// tolerance of float outputs (float64), the parameter count (int32), then
// per parameter 'I' and an int64, 'F' and a float32, 'D' and a float64, or
// 'P', the element kind ('f' float32, 'd' float64, else compared
// bytewise), the length (int64), the element size (int32), the elements,
// and 1 and the expected elements for an output, else 0.
func DumpTwins(t *testing.T, cases Cases) {
	dir := os.Getenv("GPUKVET_TWINS_DUMP")
	if dir == "" {
		t.Skip("GPUKVET_TWINS_DUMP is not set (cuemu/run.sh sets it)")
	}
	for _, c := range cases(false) {
		if err := dumpCase(filepath.Join(dir, c.Name+".bin"), c, CPUResult(t, c)); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
}

func dumpCase(path string, c Case, outs []any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(f)
	put := func(v any) {
		if err == nil {
			err = binary.Write(b, binary.LittleEndian, v)
		}
	}
	for _, d := range []int{c.Grid.X, c.Grid.Y, c.Grid.Z, c.Block.X, c.Block.Y, c.Block.Z} {
		put(int32(d))
	}
	put(max(c.Tol, 1e-5))
	put(int32(len(c.Twin)))
	for _, p := range c.Twin {
		switch p := p.(type) {
		case Ref:
			v := reflect.ValueOf(c.Args[p])
			put(byte('P'))
			put(elemKind(v.Type().Elem().Kind()))
			put(int64(v.Len()))
			put(int32(v.Type().Elem().Size()))
			put(v.Interface())
			out := byte(0)
			var want any
			for j, o := range c.Outs {
				if o == int(p) {
					out, want = 1, outs[j]
				}
			}
			put(out)
			if want != nil {
				put(want)
			}
		case LenOf:
			put(byte('I'))
			put(int64(reflect.ValueOf(c.Args[p]).Len()))
		case int64:
			put(byte('I'))
			put(p)
		case float32:
			put(byte('F'))
			put(p)
		case float64:
			put(byte('D'))
			put(p)
		}
	}
	if err == nil {
		err = b.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// elemKind is the dump's element kind: how cuemu compares the elements.
func elemKind(k reflect.Kind) byte {
	switch k {
	case reflect.Float32:
		return 'f'
	case reflect.Float64:
		return 'd'
	}
	return 'x'
}
