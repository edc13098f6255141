package differential

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// A tcase is one kernel launch run on the cpu backend (the reference) and
// on a GPU backend, with its results compared.
type tcase struct {
	name        string
	kernel      any
	grid, block gpu.Dim3
	args        func() []any // scalars, and slice(...) for buffers
	// ulp is the largest difference allowed between float results, in
	// units in the last place (0: bit-identical, NaNs of any payload equal).
	ulp int64
	// argULP overrides ulp for single arguments (by index).
	argULP map[int]int64
	// trap is the start of the Go run-time error the launch must trap with
	// on every backend ("" for none).
	trap string
	// trapAt, if set, is the "file.go:line" the trap must name.
	trapAt string
	// ignore lists argument indices whose contents are not compared (an
	// atomic's winner); sorted lists those compared as multisets.
	ignore, sorted []int
	// check, if set, validates one backend's outputs on its own.
	check func(outs []any) error
}

// hostSlice is a []T argument, uploaded to a *device.Buffer[T].
type hostSlice interface {
	upload(d *device.Device) (any, error)
	download(buf any) (any, error)
	free(buf any) error
}

type sliceOf[T any] struct{ data []T }

// slice makes a buffer argument holding a copy of data.
func slice[T any](data []T) hostSlice { return sliceOf[T]{data} }

func (s sliceOf[T]) upload(d *device.Device) (any, error) { return device.Upload(d, s.data) }
func (s sliceOf[T]) download(b any) (any, error)          { return b.(*device.Buffer[T]).Download() }
func (s sliceOf[T]) free(b any) error                     { return b.(*device.Buffer[T]).Free() }

// result is what one backend made of a case: the contents of every buffer
// argument after the launch (nil for scalars), and the trap if any.
type result struct {
	outs []any
	trap *backend.Trap
}

// run launches c on d and reads every buffer back.
func run(d *device.Device, c *tcase) (*result, error) {
	args := c.args()
	launch := make([]any, len(args))
	var bufs []func() error
	defer func() {
		for _, f := range bufs {
			f()
		}
	}()
	for i, a := range args {
		s, ok := a.(hostSlice)
		if !ok {
			launch[i] = a
			continue
		}
		b, err := s.upload(d)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, func() error { return s.free(b) })
		launch[i] = b
	}
	if err := d.Launch(c.kernel, c.grid, c.block, launch...); err != nil {
		return nil, fmt.Errorf("Launch: %w", err)
	}
	r := &result{outs: make([]any, len(args))}
	if err := d.Sync(); err != nil {
		if !errors.As(err, &r.trap) {
			return nil, fmt.Errorf("Sync: %w", err)
		}
	}
	for i, a := range args {
		s, ok := a.(hostSlice)
		if !ok {
			continue
		}
		out, err := s.download(launch[i])
		if err != nil {
			return nil, fmt.Errorf("Download of argument %d: %w", i+1, err)
		}
		r.outs[i] = out
	}
	return r, nil
}

// checkTrap says whether r trapped as c expects.
func checkTrap(c *tcase, r *result) error {
	switch {
	case c.trap == "" && r.trap != nil:
		return fmt.Errorf("unexpected trap: %v", r.trap)
	case c.trap != "" && r.trap == nil:
		return fmt.Errorf("no trap, want one with %q", c.trap)
	case c.trap != "" && !strings.HasPrefix(r.trap.Msg, c.trap):
		return fmt.Errorf("trap %q, want one starting %q", r.trap.Msg, c.trap)
	case c.trapAt != "" && !strings.HasSuffix(fileLine(r.trap.Pos), c.trapAt):
		return fmt.Errorf("trap at %s, want at %s", r.trap.Pos, c.trapAt)
	}
	return nil
}

// fileLine reduces a position to "base.go:line" so that positions from
// backends that print paths differently compare.
func fileLine(pos string) string {
	parts := strings.Split(pos, ":")
	if len(parts) >= 3 {
		if _, err := fmt.Sscan(parts[len(parts)-1], new(int)); err == nil {
			if _, err := fmt.Sscan(parts[len(parts)-2], new(int)); err == nil {
				parts = parts[:len(parts)-1] // drop a column
			}
		}
	}
	if len(parts) < 2 {
		return pos
	}
	return filepath.Base(strings.Join(parts[:len(parts)-1], ":")) + ":" + parts[len(parts)-1]
}

// compare compares a GPU result with the cpu's; it returns the largest
// float difference seen in ULPs.
func compare(c *tcase, cpu, gpu *result) (maxULP int64, err error) {
	if cpu.trap != nil && gpu.trap != nil && fileLine(cpu.trap.Pos) != fileLine(gpu.trap.Pos) {
		return 0, fmt.Errorf("trap at %s on the GPU, at %s on the cpu", gpu.trap.Pos, cpu.trap.Pos)
	}
	if c.trap != "" {
		return 0, nil // contents after a trap are unspecified
	}
	skip := map[int]bool{}
	for _, i := range c.ignore {
		skip[i] = true
	}
	for _, i := range c.sorted {
		sortSlice(cpu.outs[i])
		sortSlice(gpu.outs[i])
	}
	for i := range cpu.outs {
		if cpu.outs[i] == nil || skip[i] {
			continue
		}
		var path string
		bound := c.ulp
		if b, ok := c.argULP[i]; ok {
			bound = b
		}
		u, err := diff(reflect.ValueOf(cpu.outs[i]), reflect.ValueOf(gpu.outs[i]), bound, &path)
		maxULP = max(maxULP, u)
		if err != nil {
			return maxULP, fmt.Errorf("argument %d%s: %v", i+1, path, err)
		}
	}
	return maxULP, nil
}

func sortSlice(s any) {
	v := reflect.ValueOf(s)
	sort.Slice(s, func(i, j int) bool {
		a, b := v.Index(i), v.Index(j)
		switch a.Kind() {
		case reflect.Float32, reflect.Float64:
			return a.Float() < b.Float()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return a.Uint() < b.Uint()
		default:
			return a.Int() < b.Int()
		}
	})
}

// diff compares two values of the same type element by element.
func diff(want, got reflect.Value, ulp int64, path *string) (int64, error) {
	switch want.Kind() {
	case reflect.Slice, reflect.Array:
		if want.Len() != got.Len() {
			return 0, fmt.Errorf("length %d, want %d", got.Len(), want.Len())
		}
		var m int64
		for i := 0; i < want.Len(); i++ {
			u, err := diff(want.Index(i), got.Index(i), ulp, path)
			m = max(m, u)
			if err != nil {
				*path = fmt.Sprintf("[%d]%s", i, *path)
				return m, err
			}
		}
		return m, nil
	case reflect.Struct:
		var m int64
		for i := 0; i < want.NumField(); i++ {
			u, err := diff(want.Field(i), got.Field(i), ulp, path)
			m = max(m, u)
			if err != nil {
				*path = "." + want.Type().Field(i).Name + *path
				return m, err
			}
		}
		return m, nil
	case reflect.Float32:
		d := ulpDiff32(float32(want.Float()), float32(got.Float()))
		if ulp == 0 && d == 0 && math.Float32bits(float32(want.Float())) != math.Float32bits(float32(got.Float())) && want.Float() == want.Float() {
			d = 1 // -0 and +0 differ where bit-identity is asked
		}
		if d > ulp {
			return d, fmt.Errorf("%v (bits %#x), want %v (bits %#x): %d ULP apart, %d allowed",
				float32(got.Float()), math.Float32bits(float32(got.Float())), float32(want.Float()), math.Float32bits(float32(want.Float())), d, ulp)
		}
		return d, nil
	case reflect.Float64:
		d := ulpDiff64(want.Float(), got.Float())
		if ulp == 0 && d == 0 && math.Float64bits(want.Float()) != math.Float64bits(got.Float()) && !math.IsNaN(want.Float()) {
			d = 1 // -0 and +0 differ where bit-identity is asked
		}
		if d > ulp {
			return d, fmt.Errorf("%v (bits %#x), want %v (bits %#x): %d ULP apart, %d allowed",
				got.Float(), math.Float64bits(got.Float()), want.Float(), math.Float64bits(want.Float()), d, ulp)
		}
		return d, nil
	default:
		if !want.Equal(got) {
			return 0, fmt.Errorf("%v, want %v", got, want)
		}
		return 0, nil
	}
}

// ulpDiff64 is the number of representable float64s between a and b
// (0 when both are NaN; huge when only one is).
func ulpDiff64(a, b float64) int64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return math.MaxInt64
	}
	oa, ob := ordered64(a), ordered64(b)
	if oa > ob {
		oa, ob = ob, oa
	}
	if ob-oa < 0 { // overflow
		return math.MaxInt64
	}
	return ob - oa
}

func ordered64(f float64) int64 {
	b := int64(math.Float64bits(f))
	if b < 0 {
		return math.MinInt64 - b
	}
	return b
}

func ulpDiff32(a, b float32) int64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.MaxInt64
	}
	o := func(f float32) int64 {
		b := int32(math.Float32bits(f))
		if b < 0 {
			return int64(math.MinInt32) - int64(b)
		}
		return int64(b)
	}
	d := o(a) - o(b)
	if d < 0 {
		d = -d
	}
	return d
}
