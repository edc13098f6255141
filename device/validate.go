package device

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/gpu"
)

// Validation runs every launch on the device's backend and again on the cpu
// backend, from a copy of the same inputs, and compares every buffer the
// kernel was given (a kernel may write any of them): integers and bools
// exactly, floats within a bound in units in the last place (ULPs), and
// floats that gpu.AtomicAdd added to within the bound of any order of
// their terms: threads add in no fixed order, so a correct kernel's float
// sums differ by rounding from run to run. While the cpu backend runs the
// launch, validation counts the float atomic additions that reach each
// element and sums their magnitudes, and accepts a difference up to
// 2·γ(n+ULPs)·S there, where n is the number of additions, S the
// magnitude of the initial value plus the sum of the terms' magnitudes,
// and γ(k) = k·u/(1−k·u) with u the unit roundoff (Higham's bound for
// recursive summation, twice: one per order). A value that a kernel
// derives from a float atomic's result and stores elsewhere gets the ULP
// bound only. A
// mismatch is reported by the next Sync or Download as an error naming the
// kernel, the parameter, the first differing indices with both values, and
// how many elements differ.
//
// It is switched on by GPUKVET_VALIDATE=1 (GPUKVET_VALIDATE_ULPS=N sets the
// float bound, default 4; GPUKVET_VALIDATE_EVERY=N validates one launch in
// N of each kernel, default 1) or by the WithValidation option. Each
// validated launch waits for the device, copies its buffers to the host
// twice and runs the kernel on the cpu backend: a debugging mode, which
// EVERY keeps usable on large programs. Comparing uses every core
// (GOMAXPROCS) and skips equal bytes with memcmp; with every launch
// validated, the host copies of the last launch's buffers are kept for
// the next one (host memory of the launch's buffers plus its largest
// one, freed by Close). On the cpu backend itself it
// compares two runs of the cpu backend, which catches kernels whose result
// depends on the schedule.
type Validation struct {
	// ULPs is the largest difference allowed between floats, in units in
	// the last place; NaNs match NaNs, and +0 matches -0. 0 means exact.
	ULPs uint64
	// Every validates one launch in Every of each kernel (the first, then
	// every Every-th); 0 or 1 validates all.
	Every int
}

// WithValidation switches validation on with the given settings.
func WithValidation(v Validation) Option {
	return func(d *Device) error {
		if v.Every < 0 {
			return fmt.Errorf("device.WithValidation: negative Every %d", v.Every)
		}
		d.val = &validator{Validation: v, counts: map[string]int{}}
		return nil
	}
}

// DefaultULPs is the float bound of GPUKVET_VALIDATE=1 without
// GPUKVET_VALIDATE_ULPS.
const DefaultULPs = 4

func validateFromEnv(d *Device) error {
	v := os.Getenv("GPUKVET_VALIDATE")
	if v == "" || v == "0" {
		return nil
	}
	if v != "1" {
		return fmt.Errorf("device.Open: GPUKVET_VALIDATE=%q: want 1 (or 0)", v)
	}
	val := Validation{ULPs: DefaultULPs, Every: 1}
	if s := os.Getenv("GPUKVET_VALIDATE_ULPS"); s != "" {
		u, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("device.Open: GPUKVET_VALIDATE_ULPS=%q is not a whole number", s)
		}
		val.ULPs = u
	}
	if s := os.Getenv("GPUKVET_VALIDATE_EVERY"); s != "" {
		e, err := strconv.Atoi(s)
		if err != nil || e < 1 {
			return fmt.Errorf("device.Open: GPUKVET_VALIDATE_EVERY=%q is not a positive whole number", s)
		}
		val.Every = e
	}
	return WithValidation(val)(d)
}

// validator is the state of validation on one device.
type validator struct {
	Validation
	ref    *cpu.Backend   // the cpu backend the launches are repeated on
	counts map[string]int // launches per kernel, for Every
	errs   []error        // mismatches and deferred errors, for the next Sync
	cur    *valLaunch     // the launch being validated
	ulps   uint64         // bound of the current launch
	// spare holds the cpu copies of the last validated launch's buffers
	// and got its largest download, for the next launch to reuse where
	// the types and lengths match: a large allocation is zeroed, which
	// costs as much as the copy into it. Kept only when every launch is
	// validated (Every <= 1); freed by Close.
	spare []backend.Memory
	got   reflect.Value
}

// valLaunch is one launch under validation: the cpu copies of its buffers.
type valLaunch struct {
	k    *kernel
	args []backend.Arg   // the device's arguments
	ref  []backend.Arg   // the cpu backend's copies
	host []reflect.Value // the cpu copies' []T, for their types
}

func (v *validator) open(d *Device) error {
	be, err := cpu.Open()
	if err != nil {
		return err
	}
	v.ref = be.(*cpu.Backend)
	return nil
}

func (v *validator) close() error {
	v.dropSpare()
	return v.ref.Close()
}

// dropSpare frees the spare copies.
func (v *validator) dropSpare() {
	for _, m := range v.spare {
		v.ref.Free(m)
	}
	v.spare, v.got = nil, reflect.Value{}
}

// alloc returns a cpu backend allocation of n elem, a spare one when one
// fits, and its []T; its contents are not zeroed.
func (v *validator) alloc(elem reflect.Type, n int) (backend.Memory, reflect.Value, error) {
	for j, m := range v.spare {
		if m.Len() != n {
			continue
		}
		s, err := v.ref.Slice(m)
		if err == nil && s.Type().Elem() == elem {
			v.spare = slices.Delete(v.spare, j, j+1)
			return m, s, nil
		}
	}
	m, err := v.ref.Alloc(elem, n)
	if err != nil {
		return nil, reflect.Value{}, err
	}
	s, err := v.ref.Slice(m)
	if err != nil {
		v.ref.Free(m)
		return nil, reflect.Value{}, err
	}
	return m, s, nil
}

// validateBefore copies the launch's buffers to the cpu backend, when this
// launch is one Every samples. d.mu is held.
func (d *Device) validateBefore(k *kernel, args []backend.Arg, ulps uint64) {
	v := d.val
	v.cur = nil
	n := v.counts[k.Name]
	v.counts[k.Name] = n + 1
	if v.Every > 1 && n%v.Every != 0 {
		return
	}
	l := &valLaunch{k: k, args: args, ref: make([]backend.Arg, len(args)), host: make([]reflect.Value, len(args))}
	for i, a := range args {
		if a.Mem == nil {
			l.ref[i] = a
			continue
		}
		// Download the device's buffer straight into the cpu backend's
		// copy (one copy, not two).
		m, host, err := v.alloc(k.Params[i].Elem(), a.Mem.Len())
		if err != nil {
			v.freeRef(l)
			v.errs = append(v.errs, fmt.Errorf("validation of kernel %s: copying %s to the cpu backend: %w", k.Name, k.param(i), err))
			return
		}
		l.ref[i] = backend.Arg{Mem: m}
		l.host[i] = host
		if err := d.be.Read(host, a.Mem); err != nil {
			// An earlier launch's error: report it at the next Sync, and
			// validate nothing (the inputs are not known).
			v.freeRef(l)
			v.errs = append(v.errs, err)
			return
		}
	}
	// Spares no launch argument took: free them.
	for _, m := range v.spare {
		v.ref.Free(m)
	}
	v.spare = nil
	v.cur = l
	v.ulps = ulps
}

// validateAfter runs the launch on the cpu backend and compares the
// buffers.
func (d *Device) validateAfter(grid, block gpu.Dim3) {
	v := d.val
	l := v.cur
	if l == nil {
		return
	}
	v.cur = nil
	keep := v.Every <= 1
	defer func() {
		if !keep {
			v.freeRef(l)
			return
		}
		for i, a := range l.ref {
			if a.Mem != nil {
				v.spare = append(v.spare, a.Mem)
				l.ref[i].Mem = nil
			}
		}
	}()
	logs, stop := recordFloatAtomics(l.host)
	refErr := v.ref.Launch(&l.k.Kernel, grid, block, l.ref)
	if refErr == nil {
		refErr = v.ref.Sync()
	}
	stop()
	got := v.got // reused from buffer to buffer, and launch to launch, where it fits
	v.got = reflect.Value{}
	if keep {
		defer func() { v.got = got }()
	}
	for i, a := range l.args {
		if a.Mem == nil {
			continue
		}
		t := l.host[i].Type()
		if !got.IsValid() || got.Type() != t || got.Cap() < a.Mem.Len() {
			got = reflect.Value{} // let the collector have the old one first
			got = reflect.MakeSlice(t, a.Mem.Len(), a.Mem.Len())
		} else {
			got = got.Slice(0, a.Mem.Len())
		}
		if err := d.be.Read(got, a.Mem); err != nil {
			// The device's own trap: report it; comparing is moot.
			v.errs = append(v.errs, err)
			return
		}
		if refErr != nil {
			v.errs = append(v.errs, fmt.Errorf("validation of kernel %s: the %s backend ran it, but the cpu backend reports: %w", l.k.Name, d.be.Name(), refErr))
			return
		}
		// The cpu backend's result, read in place.
		want, err := v.ref.Slice(l.ref[i].Mem)
		if err != nil {
			v.errs = append(v.errs, err)
			return
		}
		if err := compare(want.Interface(), got.Interface(), v.ulps, logs[i]); err != nil {
			v.errs = append(v.errs, fmt.Errorf("validation of kernel %s %s: %s backend and cpu backend differ: %w", l.k.Name, l.k.param(i), d.be.Name(), err))
		}
	}
}

// freeRef frees the cpu backend's copies of l's buffers.
func (v *validator) freeRef(l *valLaunch) {
	for i, a := range l.ref {
		if a.Mem != nil {
			v.ref.Free(a.Mem)
			l.ref[i].Mem = nil
		}
	}
}

// validated returns the validation errors found since the last Sync or
// Download, and forgets them. d.mu is held.
func (d *Device) validated(bool) error {
	if d.val == nil || len(d.val.errs) == 0 {
		return nil
	}
	err := errors.Join(d.val.errs...)
	d.val.errs = nil
	return err
}

// Compare compares want and got, two slices of one element type (bool,
// integers, float32, float64 or structs of those): integers and bools
// exactly, floats within ulps units in the last place, or within ulps units
// in the last place of the largest magnitude in the reference buffer (the
// error a fused multiply-add leaves where a result cancels; NaN equals NaN,
// +0 equals -0). It returns nil when they agree, else an error giving the
// number of differing elements and the first few with both values.
func Compare(want, got any, ulps uint64) error {
	return compare(want, got, ulps, nil)
}

// compare is Compare that also accepts, for the floats that log saw float
// atomics reach, a difference within their reordering bound (atomiclog.go).
func compare(want, got any, ulps uint64, log *atomicLog) error {
	wv, gv := reflect.ValueOf(want), reflect.ValueOf(got)
	if wv.Kind() != reflect.Slice || gv.Type() != wv.Type() {
		return fmt.Errorf("device.Compare: %T and %T are not two slices of one type", want, got)
	}
	if wv.Len() != gv.Len() {
		return fmt.Errorf("lengths differ: %d and %d", wv.Len(), gv.Len())
	}
	elem := wv.Type().Elem()
	if err := allowedType(elem); err != nil {
		return fmt.Errorf("device.Compare: %v", err)
	}
	fields := scalarFields(elem, 0, "", nil)
	size := elem.Size()
	n := wv.Len()
	if n == 0 {
		return nil
	}
	wp, gp := wv.UnsafePointer(), gv.UnsafePointer()
	count, diffs := compareElems(fields, wp, gp, size, n, ulps, log)
	const show = 3
	var first []string
	for _, d := range diffs[:min(show, len(diffs))] {
		f := fields[d.field]
		a := unsafe.Add(wp, uintptr(d.i)*size+f.off)
		b := unsafe.Add(gp, uintptr(d.i)*size+f.off)
		first = append(first, fmt.Sprintf("[%d]%s: cpu %s, device %s", d.i, f.path, f.format(a), f.format(b)))
	}
	if count == 0 {
		return nil
	}
	bound := "exactly"
	if ulps > 0 {
		bound = fmt.Sprintf("within %d ULPs for floats, or %d ULPs of the buffer's largest magnitude", ulps, ulps)
	}
	if log != nil && log.count != nil {
		bound += ", and floats that float atomics added to within the bound of any order of their terms"
	}
	return fmt.Errorf("%d of %d elements differ (compared %s); first: %s", count, n, bound, strings.Join(first, "; "))
}

// scalarField is one bool, integer or float inside an element.
type scalarField struct {
	off  uintptr
	kind reflect.Kind
	size uintptr
	path string // ".A.B" within the element; "" for a scalar element
}

func scalarFields(t reflect.Type, off uintptr, path string, out []scalarField) []scalarField {
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			f := t.Field(i)
			out = scalarFields(f.Type, off+f.Offset, path+"."+f.Name, out)
		}
		return out
	}
	return append(out, scalarField{off: off, kind: t.Kind(), size: t.Size(), path: path})
}

// absBounds gives each float field an absolute error bound: ulps units in
// the last place of the largest finite magnitude the reference holds in
// that field. Go lets x*y + z fuse, and a GPU fuses where the cpu backend
// rounds the product; where such a result cancels to near zero, the two
// differ by about one ULP of the product, which is many ULPs of the result.
// Bounding the error by the buffer's scale (as ‖got − want‖ / ‖want‖ does)
// accepts that while still catching any real error.
func absBounds(fields []scalarField, wp unsafe.Pointer, size uintptr, n int, ulps uint64) []float64 {
	abs := make([]float64, len(fields))
	if ulps == 0 {
		return abs
	}
	for j, f := range fields {
		if !f.isFloat() {
			continue
		}
		parts := make([]float64, (n+compareChunk-1)/compareChunk)
		parallelChunks(n, func(c int) {
			parts[c] = maxAbs(f, wp, size, n, c*compareChunk, min(n, (c+1)*compareChunk))
		})
		scale := 0.0
		for _, p := range parts {
			scale = max(scale, p)
		}
		var spacing float64
		if f.kind == reflect.Float32 {
			s := float32(scale)
			spacing = float64(math.Nextafter32(s, float32(math.Inf(1))) - s)
		} else {
			spacing = math.Nextafter(scale, math.Inf(1)) - scale
		}
		abs[j] = float64(ulps) * spacing
	}
	return abs
}

// isFloat reports whether f is a float32 or float64.
func (f scalarField) isFloat() bool { return f.kind == reflect.Float32 || f.kind == reflect.Float64 }

// float reads a float field as float64.
func (f scalarField) float(p unsafe.Pointer) float64 {
	if f.kind == reflect.Float32 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}

func (f scalarField) equal(a, b unsafe.Pointer, ulps uint64, abs float64) bool {
	switch f.kind {
	case reflect.Float32, reflect.Float64:
		x, y := f.float(a), f.float(b)
		if x == y || (x != x && y != y) {
			return true
		}
		if ulps == 0 {
			return false
		}
		return ulpDiff(x, y, f.kind == reflect.Float32) <= ulps || math.Abs(x-y) <= abs
	case reflect.Bool:
		return (*(*uint8)(a) != 0) == (*(*uint8)(b) != 0)
	}
	return unsafe.String((*byte)(a), f.size) == unsafe.String((*byte)(b), f.size)
}

// ulpDiff is the distance between x and y in units in the last place of
// float32 (single) or float64; infinite (MaxUint64) when one is NaN or they
// have different signs and are not both near zero.
func ulpDiff(x, y float64, single bool) uint64 {
	if single {
		return ulpDiff32(float32(x), float32(y))
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.MaxUint64
	}
	// Map the floats onto a line of integers where adjacent floats are
	// adjacent integers, across zero too.
	key := func(v float64) int64 {
		u := math.Float64bits(v)
		bits := int64(u & 0x7fffffffffffffff)
		if u>>63 != 0 {
			bits = -bits
		}
		return bits
	}
	d := key(x) - key(y)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

func (f scalarField) format(p unsafe.Pointer) string {
	switch f.kind {
	case reflect.Float32:
		return strconv.FormatFloat(float64(*(*float32)(p)), 'g', -1, 32)
	case reflect.Float64:
		return strconv.FormatFloat(*(*float64)(p), 'g', -1, 64)
	case reflect.Bool:
		return strconv.FormatBool(*(*uint8)(p) != 0)
	case reflect.Int8:
		return strconv.FormatInt(int64(*(*int8)(p)), 10)
	case reflect.Int16:
		return strconv.FormatInt(int64(*(*int16)(p)), 10)
	case reflect.Int32:
		return strconv.FormatInt(int64(*(*int32)(p)), 10)
	case reflect.Int64, reflect.Int:
		return strconv.FormatInt(*(*int64)(p), 10)
	case reflect.Uint8:
		return strconv.FormatUint(uint64(*(*uint8)(p)), 10)
	case reflect.Uint16:
		return strconv.FormatUint(uint64(*(*uint16)(p)), 10)
	case reflect.Uint32:
		return strconv.FormatUint(uint64(*(*uint32)(p)), 10)
	case reflect.Uint64, reflect.Uint:
		return strconv.FormatUint(*(*uint64)(p), 10)
	}
	return "?"
}

// elemDiff is a differing element: its index and its first differing field.
type elemDiff struct{ i, field int }

// Comparing works in chunks of compareChunk elements, spread over
// GOMAXPROCS goroutines; within a chunk, runs of compareRun elements whose
// bytes are equal are skipped without looking at their fields (equal bytes
// mean equal fields: the same floats, NaNs included, the same integers).
const (
	compareChunk = 1 << 16
	compareRun   = 1 << 9
)

// parallelChunks calls f(c) for every chunk c of n elements, in parallel.
func parallelChunks(n int, f func(c int)) {
	chunks := (n + compareChunk - 1) / compareChunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for c := range chunks {
			f(c)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				f(c)
			}
		})
	}
	wg.Wait()
}

// compareElems counts the elements of want (wp) and got (gp) that differ
// and returns the first few of them (up to 3) in order.
func compareElems(fields []scalarField, wp, gp unsafe.Pointer, size uintptr, n int, ulps uint64, log *atomicLog) (int, []elemDiff) {
	chunks := (n + compareChunk - 1) / compareChunk
	bytesAt := func(p unsafe.Pointer, lo, hi int) string {
		return unsafe.String((*byte)(unsafe.Add(p, uintptr(lo)*size)), uintptr(hi-lo)*size)
	}
	// First pass: which chunks differ in their bytes at all. A buffer the
	// device computed exactly as the cpu backend did costs one memcmp.
	differs := make([]bool, chunks)
	var anyDiff atomic.Bool
	parallelChunks(n, func(c int) {
		lo, hi := c*compareChunk, min(n, (c+1)*compareChunk)
		if bytesAt(wp, lo, hi) != bytesAt(gp, lo, hi) {
			differs[c] = true
			anyDiff.Store(true)
		}
	})
	if !anyDiff.Load() {
		return 0, nil
	}
	abs := absBounds(fields, wp, size, n, ulps)
	const show = 3
	counts := make([]int, chunks)
	firsts := make([][]elemDiff, chunks)
	scalar := len(fields) == 1 && fields[0].off == 0 && fields[0].size == size
	parallelChunks(n, func(c int) {
		if !differs[c] {
			return
		}
		lo, hi := c*compareChunk, min(n, (c+1)*compareChunk)
		count := 0
		var first []elemDiff
		note := func(i, j int) {
			count++
			if len(first) < show {
				first = append(first, elemDiff{i, j})
			}
		}
		for rlo := lo; rlo < hi; rlo += compareRun {
			rhi := min(hi, rlo+compareRun)
			if bytesAt(wp, rlo, rhi) == bytesAt(gp, rlo, rhi) {
				continue
			}
			switch {
			case scalar && fields[0].kind == reflect.Float32:
				w := unsafe.Slice((*float32)(wp), n)[rlo:rhi]
				g := unsafe.Slice((*float32)(gp), n)[rlo:rhi]
				for k := range w {
					if w[k] != g[k] && !equal32(w[k], g[k], ulps, abs[0]) && !reordered(log, uintptr(rlo+k)*size, true, ulps, float64(w[k]), float64(g[k])) {
						note(rlo+k, 0)
					}
				}
			case scalar && fields[0].kind == reflect.Float64:
				w := unsafe.Slice((*float64)(wp), n)[rlo:rhi]
				g := unsafe.Slice((*float64)(gp), n)[rlo:rhi]
				for k := range w {
					if w[k] != g[k] && !equal64(w[k], g[k], ulps, abs[0]) && !reordered(log, uintptr(rlo+k)*size, false, ulps, w[k], g[k]) {
						note(rlo+k, 0)
					}
				}
			default:
				for i := rlo; i < rhi; i++ {
					if bytesAt(wp, i, i+1) == bytesAt(gp, i, i+1) {
						continue
					}
					for j, f := range fields {
						a := unsafe.Add(wp, uintptr(i)*size+f.off)
						b := unsafe.Add(gp, uintptr(i)*size+f.off)
						if !f.equal(a, b, ulps, abs[j]) && !f.reordered(log, uintptr(i)*size, ulps, a, b) {
							note(i, j)
							break
						}
					}
				}
			}
		}
		counts[c], firsts[c] = count, first
	})
	count := 0
	var first []elemDiff
	for c := range chunks {
		count += counts[c]
		for _, d := range firsts[c] {
			if len(first) < show {
				first = append(first, d)
			}
		}
	}
	return count, first
}

// reordered reports whether want and got, the float at byte offset off of
// a buffer, differ by no more than float atomics in another order can
// make them (atomiclog.go).
func reordered(log *atomicLog, off uintptr, single bool, ulps uint64, want, got float64) bool {
	if log == nil {
		return false
	}
	return math.Abs(want-got) <= log.reorderBound(off, single, ulps)
}

// reordered is the function reordered for field f of the element at byte
// offset off (a and b point at the field).
func (f scalarField) reordered(log *atomicLog, off uintptr, ulps uint64, a, b unsafe.Pointer) bool {
	if !f.isFloat() {
		return false
	}
	return reordered(log, off+f.off, f.kind == reflect.Float32, ulps, f.float(a), f.float(b))
}

// equal32 is scalarField.equal for a float32.
func equal32(x, y float32, ulps uint64, abs float64) bool {
	if x == y || (x != x && y != y) {
		return true
	}
	if ulps == 0 {
		return false
	}
	return ulpDiff32(x, y) <= ulps || math.Abs(float64(x)-float64(y)) <= abs
}

// equal64 is scalarField.equal for a float64.
func equal64(x, y float64, ulps uint64, abs float64) bool {
	if x == y || (x != x && y != y) {
		return true
	}
	if ulps == 0 {
		return false
	}
	return ulpDiff(x, y, false) <= ulps || math.Abs(x-y) <= abs
}

// ulpDiff32 is the distance between x and y in units in the last place of
// float32 (ulpDiff for single).
func ulpDiff32(x, y float32) uint64 {
	if x != x || y != y {
		return math.MaxUint64
	}
	key := func(v float32) int64 {
		u := math.Float32bits(v)
		bits := int64(u & 0x7fffffff)
		if u>>31 != 0 {
			bits = -bits
		}
		return bits
	}
	d := key(x) - key(y)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// maxAbs is the largest finite magnitude of float field f over elements
// [lo, hi) at wp (0 when none).
func maxAbs(f scalarField, wp unsafe.Pointer, size uintptr, n, lo, hi int) float64 {
	switch {
	case f.kind == reflect.Float32 && f.off == 0 && size == 4:
		var m uint32 // magnitudes order as their bits do
		for _, v := range unsafe.Slice((*float32)(wp), n)[lo:hi] {
			if b := math.Float32bits(v) & 0x7fffffff; b > m && b < 0x7f800000 {
				m = b
			}
		}
		return float64(math.Float32frombits(m))
	case f.kind == reflect.Float64 && f.off == 0 && size == 8:
		var m uint64
		for _, v := range unsafe.Slice((*float64)(wp), n)[lo:hi] {
			if b := math.Float64bits(v) & 0x7fffffffffffffff; b > m && b < 0x7ff0000000000000 {
				m = b
			}
		}
		return math.Float64frombits(m)
	}
	scale := 0.0
	for i := lo; i < hi; i++ {
		v := f.float(unsafe.Add(wp, uintptr(i)*size+f.off))
		if a := math.Abs(v); a > scale && !math.IsInf(a, 0) {
			scale = a
		}
	}
	return scale
}
