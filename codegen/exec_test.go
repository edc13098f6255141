package codegen_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// TestBoundsCheckEliminationIsSound runs every kernel of the corpora in the
// kir interpreter, compiled with and without bounds-check elimination, on
// random inputs (short slices, small indices, so that both in- and
// out-of-range paths run): with elimination no access may leave its buffer,
// and a kernel must trap exactly when it traps with every check kept. For
// the race-free corpora the results must agree too.
func TestBoundsCheckEliminationIsSound(t *testing.T) {
	for _, set := range []struct {
		patterns []string
		raceFree bool
	}{
		{[]string{corpus + "basic", corpus + "constructs", "github.com/gpukvet/gpukvet/testdata/differential/kernels", "github.com/gpukvet/gpukvet/examples/..."}, true},
		{[]string{"github.com/gpukvet/gpukvet/testdata/corpus/divergence", "../testdata/corpus/races/..."}, false},
	} {
		opt := build(t, codegen.Options{}, set.patterns...)
		all := build(t, codegen.Options{KeepBoundsChecks: true}, set.patterns...)
		runs, trapped := runTwins(t, opt, all, set.raceFree, rand.New(rand.NewPCG(7, 11)), "with elimination", "with every check kept")
		t.Logf("%d kernels, %d runs, %d trapped", len(opt.IR.Funcs), runs, trapped)
		if trapped == 0 || trapped == runs {
			t.Errorf("the random inputs should make some runs trap and others not")
		}
	}
}

func floatAtomics(f *kir.Func) bool {
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == kir.OpAtomic && v.Type.Kind.IsFloat() {
				return true
			}
		}
	}
	return false
}

func shapes(k *codegen.KernelInfo) (grid, block [3]int) {
	block = map[int][3]int{1: {32, 1, 1}, 2: {8, 4, 1}, 3: {4, 4, 2}}[max(k.Dims, 1)]
	if k.Block != nil {
		block = [3]int{k.Block[0], k.Block[1], k.Block[2]}
	}
	grid = map[int][3]int{1: {3, 1, 1}, 2: {2, 2, 1}, 3: {2, 1, 2}}[max(k.Dims, 1)]
	if k.Grid != nil {
		grid = [3]int{k.Grid[0], k.Grid[1], k.Grid[2]}
	}
	return grid, block
}

// inputs makes random arguments for kernel k: slices of 0 to 3 blocks'
// worth of elements holding small numbers (often valid indices), scalars
// small too.
func inputs(r *rand.Rand, k *codegen.KernelInfo, f *kir.Func, trial int) []kirexec.Arg {
	args := make([]kirexec.Arg, len(f.Params))
	for _, p := range k.Params {
		switch p.Kind {
		case "slice":
			n := r.IntN(100)
			if trial == 0 {
				n = 300 // long enough for every thread of the launch
			}
			data := make([]byte, int64(n)*p.ElemSize)
			fields := p.Fields
			if len(fields) == 0 {
				fields = []codegen.FieldInfo{{Go: p.Elem, Offset: 0, Size: p.ElemSize}}
			}
			for e := 0; e < n; e++ {
				for _, fl := range fields {
					fill(r, data[int64(e)*p.ElemSize+fl.Offset:], fl.Go, fl.Size)
				}
			}
			args[p.Entry[0]] = kirexec.Arg{Buf: &kirexec.Buffer{Name: p.Name, Data: data}}
			args[p.Entry[1]] = kirexec.Arg{Bits: uint64(n)}
		case "struct":
			data := make([]byte, f.Params[p.Entry[0]].Bytes)
			for _, fl := range p.Fields {
				fill(r, data[fl.Offset:], fl.Go, fl.Size)
			}
			args[p.Entry[0]] = kirexec.Arg{Bytes: data}
		default:
			var b [8]byte
			fill(r, b[:], p.Go, 8)
			x := binary.LittleEndian.Uint64(b[:])
			switch p.Go {
			case "int8":
				x = uint64(int64(int8(x)))
			case "int16":
				x = uint64(int64(int16(x)))
			case "int32":
				x = uint64(int64(int32(x)))
			case "float32", "uint8", "uint16", "uint32", "bool":
				x &= 0xFFFFFFFF
			}
			args[p.Entry[0]] = kirexec.Arg{Bits: x}
		}
	}
	return args
}

// fill writes a random small value of Go type typ (size bytes) to b.
func fill(r *rand.Rand, b []byte, typ string, size int64) {
	var x uint64
	switch {
	case typ == "float32":
		x = uint64(math.Float32bits(float32(r.NormFloat64() * 4)))
	case typ == "float64":
		x = math.Float64bits(r.NormFloat64() * 4)
	case typ == "bool":
		x = uint64(r.IntN(2))
	case strings.HasPrefix(typ, "int"):
		x = uint64(int64(r.IntN(80) - 8))
	default:
		x = uint64(r.IntN(80))
	}
	switch size {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		binary.LittleEndian.PutUint64(b, x)
	}
}

func cloneArgs(args []kirexec.Arg) []kirexec.Arg {
	out := make([]kirexec.Arg, len(args))
	for i, a := range args {
		out[i] = a
		if a.Buf != nil {
			out[i].Buf = &kirexec.Buffer{Name: a.Buf.Name, Data: bytes.Clone(a.Buf.Data)}
		}
	}
	return out
}

// TestInterpreterCatchesMissingChecks shows that the soundness test can
// fail: saxpy with its bounds checks removed by force reads past the end of
// a short x, and the interpreter reports the fault.
func TestInterpreterCatchesMissingChecks(t *testing.T) {
	// At -O0 every access has its own check; the optimizer would combine
	// saxpy's checks into one branch whose slow path re-checks them.
	m, err := codegen.Build([]string{corpus + "basic"}, codegen.Options{KeepBoundsChecks: true, DisableOptimizer: true})
	if err != nil {
		t.Fatal(err)
	}
	f := m.IR.Funcs[0] // changed below: not from the shared cache
	removed := 0
	for _, b := range f.Blocks {
		if b.Term == kir.TermBranch && b.Succs[1].Term == kir.TermTrap {
			trap := b.Succs[1]
			b.Term, b.Cond, b.Succs = kir.TermJump, nil, b.Succs[:1]
			trap.Preds = nil
			removed++
		}
	}
	kir.RemoveUnreachable(f)
	if removed == 0 {
		t.Fatal("saxpy has no bounds checks to remove")
	}
	x := &kirexec.Buffer{Name: "x", Data: make([]byte, 4*10)}
	y := &kirexec.Buffer{Name: "y", Data: make([]byte, 4*64)}
	args := []kirexec.Arg{{Bits: uint64(math.Float32bits(2))}, {Buf: x}, {Bits: 10}, {Buf: y}, {Bits: 64}}
	_, err = kirexec.Run(f, nil, [3]int{2, 1, 1}, [3]int{32, 1, 1}, args)
	var fault *kirexec.Fault
	if !errors.As(err, &fault) || !strings.Contains(err.Error(), "of x (40 bytes)") {
		t.Errorf("Run without checks: %v, want a fault reading x[10]", err)
	}
	// With its checks, the same run traps instead.
	m = build(t, codegen.Options{}, corpus+"basic")
	trap, err := kirexec.Run(m.IR.Funcs[0], nil, [3]int{2, 1, 1}, [3]int{32, 1, 1}, args)
	if err != nil || trap == nil || trap.Code != gpuabi.TrapIndex {
		t.Errorf("Run with checks: trap %+v, error %v; want an index trap", trap, err)
	}
}

// runTwins runs every kernel of module a and its twin in module b (the
// same kernels compiled another way) in the kir interpreter on the same
// random inputs, six trials each, and returns how many runs there were and
// how many trapped in a. No access may leave its buffer in either; for
// race-free kernels a must trap exactly when b does (which thread traps
// first, and so with which cause, depends on scheduling; whether the
// launch traps does not), and compute the same bytes. aName and bName say
// how each was compiled, for messages.
// racyOnRandomInputs are kernels of the race-free corpora that are race-free
// only under a caller's precondition random inputs do not meet (each has a
// //gpukvet:ignore races saying so). The interpreter runs threads
// concurrently, so which write lands differs from run to run: only their
// traps are compared.
var racyOnRandomInputs = map[string]string{
	"kernels_Scatter": "idx must be a permutation; random indices repeat, so two threads write one element",
}

func runTwins(t *testing.T, a, b *codegen.Module, raceFree bool, r *rand.Rand, aName, bName string) (runs, trapped int) {
	t.Helper()
	if len(a.IR.Funcs) != len(b.IR.Funcs) {
		t.Fatalf("%d kernels %s, %d %s", len(a.IR.Funcs), aName, len(b.IR.Funcs), bName)
	}
	for i, f := range a.IR.Funcs {
		k := a.Manifest.Kernels[i]
		for trial := range 6 {
			grid, block := shapes(k)
			args := inputs(r, k, f, trial)
			argsB := cloneArgs(args)
			trapA, errA := kirexec.Run(f, a.IR.Shared, grid, block, args)
			trapB, errB := kirexec.Run(b.IR.Funcs[i], b.IR.Shared, grid, block, argsB)
			if errB != nil {
				if strings.Contains(errB.Error(), "not supported by the interpreter") {
					break
				}
				t.Errorf("%s (%s): %v", k.Entry, bName, errB)
				break
			}
			if errA != nil {
				t.Errorf("%s (%s): %v", k.Entry, aName, errA)
				break
			}
			runs++
			if trapA != nil {
				trapped++
			}
			if !raceFree {
				continue
			}
			if (trapA == nil) != (trapB == nil) {
				t.Errorf("%s: trap %+v %s, %+v %s", k.Entry, trapA, aName, trapB, bName)
				continue
			}
			if trapA == nil && !floatAtomics(f) && racyOnRandomInputs[k.Entry] == "" {
				for j := range args {
					if args[j].Buf != nil && !bytes.Equal(args[j].Buf.Data, argsB[j].Buf.Data) {
						t.Errorf("%s: parameter %s differs %s and %s", k.Entry, k.EntryParams[j].Name, aName, bName)
					}
				}
			}
		}
	}
	return runs, trapped
}

// TestChecksOfOneIndexOnTwoSlices runs, with and without bounds-check
// elimination, kernels that index two slices with the same indices: the
// tests a versioned loop or a check group is planned on are one per index
// and slice (keyed by the index alone, the second slice's test was
// dropped, and PolyBench's adi column sweep read b past its end).
func TestChecksOfOneIndexOnTwoSlices(t *testing.T) {
	const src = `package apicalls

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func AdiColumnSweepFused(t gpu.Thread, a, b, x []float32, n int) {
	i2 := t.BlockIdx().X*t.BlockDim().X + t.ThreadIdx().X
	if i2 < n {
		for i1 := 1; i1 < n; i1++ {
			x[i1*n+i2] = x[i1*n+i2] - x[(i1-1)*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
			b[i1*n+i2] = b[i1*n+i2] - a[i1*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
		}
	}
}

//gpu:kernel
func TwoStencils(t gpu.Thread, a, b, y []float32) {
	i := t.GlobalIdx().X
	if i >= 1 && i < len(y)-2 {
		y[i] = a[i-1] + a[i] + a[i+1] + a[i+2] + b[i-1] + b[i] + b[i+1] + b[i+2]
	}
}
`
	opt, err := buildSource(t, src, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := buildSource(t, src, codegen.Options{KeepBoundsChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(20) {
		runTwins(t, opt, all, true, rand.New(rand.NewPCG(seed, 3)), "with elimination", "with every check kept")
	}
}
