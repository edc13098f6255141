// Package heldout is a held-out set (HELDOUT-host.md): kernel code and
// launches written without reading memspace, each bug next to a correct
// near-twin that must stay silent.
package heldout

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gpukvet/gpukvet/gpu"
)

var scaleFactor float32 = 2 // a package-level variable

const scaleConst = 2

var hits atomic.Int64

type vec2 struct{ X, Y float32 }

func (v vec2) dot(w vec2) float32 { return v.X*w.X + v.Y*w.Y }

// scaleBy reads a global: a device function reached from a kernel.
func scaleBy(x float32) float32 {
	return x * scaleFactor // want `package-level variable`
}

func scaleByConst(x float32) float32 { return x * scaleConst }

//gpu:kernel
func GlobalThroughHelper(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	out[i] = scaleBy(out[i])
}

//gpu:kernel
func ConstThroughHelper(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	out[i] = scaleByConst(out[i])
}

//gpu:kernel
func AtomicGlobalCounter(t gpu.Thread, out []float32) {
	hits.Add(1) // want `package-level variable hits` `atomic.Int64.Add`
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel
func AtomicDeviceCounter(t gpu.Thread, counter []int64, out []float32) {
	gpu.AtomicAdd(&counter[0], 1)
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel
func ClosureInKernel(t gpu.Thread, out []float32) {
	sq := func(x float32) float32 { return x * x } // want `function literal|closure`
	i := t.GlobalIdx().X
	out[i] = sq(out[i]) // want `function value`
}

func sq(x float32) float32 { return x * x }

//gpu:kernel
func HelperInKernel(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	out[i] = sq(out[i])
}

//gpu:kernel
func MethodValueInKernel(t gpu.Thread, out []float32) {
	a := vec2{1, 2}
	f := a.dot                           // want `method value|function value`
	out[t.GlobalIdx().X] = f(vec2{3, 4}) // want `function value`
}

//gpu:kernel
func MethodCallInKernel(t gpu.Thread, out []float32) {
	a := vec2{1, 2}
	out[t.GlobalIdx().X] = a.dot(vec2{3, 4})
}

//gpu:kernel
func GoInKernel(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	go sq(out[i]) // want `go statement|go`
}

//gpu:kernel
func DeferInKernel(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	defer sq(out[i]) // want `defer`
	out[i] = 0
}

//gpu:kernel
func ChannelInKernel(t gpu.Thread, out []float32) {
	var ch chan float32 // want `chan`
	select {            // want `select`
	case v := <-ch: // covered by the select diagnostic
		out[t.GlobalIdx().X] = v
	default:
	}
}

//gpu:kernel
func MapLiteralInKernel(t gpu.Thread, out []float32, keys []int32) {
	table := map[int32]float32{1: 2, 3: 4} // want `map`
	i := t.GlobalIdx().X
	out[i] = table[keys[i]]
}

//gpu:kernel
func SwitchTableInKernel(t gpu.Thread, out []float32, keys []int32) {
	i := t.GlobalIdx().X
	switch keys[i] {
	case 1:
		out[i] = 2
	case 3:
		out[i] = 4
	}
}

//gpu:kernel
func NewInKernel(t gpu.Thread, out []float32) {
	p := new(vec2) // want `new allocates memory`
	p.X = 1
	out[t.GlobalIdx().X] = p.X
}

//gpu:kernel
func LocalStructPtrInKernel(t gpu.Thread, out []float32) {
	var v vec2
	p := &v
	p.X = 1
	out[t.GlobalIdx().X] = p.X
}

//gpu:kernel
func StringBuildInKernel(t gpu.Thread, out []float32, codes []int32) {
	i := t.GlobalIdx().X
	s := string(rune(codes[i])) // want `string`
	out[i] = float32(len(s))
}

//gpu:kernel
func ConstStringInKernel(t gpu.Thread, out []float32) {
	const s = "gpukvet"
	out[t.GlobalIdx().X] = float32(len(s))
}

//gpu:kernel
func FmtInKernel(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if out[i] < 0 {
		fmt.Println("negative", i) // want `fmt.Println`
	}
}

//gpu:kernel
func PanicInKernel(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if out[i] < 0 {
		panic("negative")
	}
}

//gpu:kernel
func StringsInKernel(t gpu.Thread, out []float32) {
	out[t.GlobalIdx().X] = float32(strings.Count("a,b", ",")) // want `strings.Count`
}

//gpu:kernel
func TimeInKernel(t gpu.Thread, out []int64) {
	out[t.GlobalIdx().X] = time.Now().UnixNano() // want `time.Now` `UnixNano`
}

//gpu:kernel
func MathNotAllowed(t gpu.Thread, out []float64) {
	i := t.GlobalIdx().X
	out[i] = math.Gamma(out[i]) // want `math.Gamma`
}

//gpu:kernel
func MathAllowed(t gpu.Thread, out []float64) {
	i := t.GlobalIdx().X
	out[i] = math.Sqrt(math.Abs(out[i])) + math.Pi
}

//gpu:kernel
func UnsafeInKernel(t gpu.Thread, out []float32, bits []uint32) {
	i := t.GlobalIdx().X
	bits[i] = *(*uint32)(unsafe.Pointer(&out[i])) // want `unsafe`
}

//gpu:kernel
func BitsInKernel(t gpu.Thread, out []float32, bits []uint32) {
	i := t.GlobalIdx().X
	bits[i] = math.Float32bits(out[i])
}

type shape interface{ area() float32 }

type square struct{ s float32 }

func (q square) area() float32 { return q.s * q.s }

//gpu:kernel
func InterfaceInKernel(t gpu.Thread, out []float32) {
	var sh shape = square{2}         // want `interface`
	out[t.GlobalIdx().X] = sh.area() // want `interface`
}

//gpu:kernel
func ConcreteInKernel(t gpu.Thread, out []float32) {
	sh := square{2}
	out[t.GlobalIdx().X] = sh.area()
}

// even and odd are mutually recursive device functions.
func even(n int) bool {
	if n == 0 {
		return true
	}
	return odd(n - 1) // want `recursi`
}

func odd(n int) bool {
	if n == 0 {
		return false
	}
	return even(n - 1) // want `recursi`
}

//gpu:kernel
func MutualRecursion(t gpu.Thread, out []float32) {
	if even(t.GlobalIdx().X) {
		out[t.GlobalIdx().X] = 1
	}
}

func evenLoop(n int) bool {
	e := true
	for ; n > 0; n-- {
		e = !e
	}
	return e
}

//gpu:kernel
func LoopInsteadOfRecursion(t gpu.Thread, out []float32) {
	if evenLoop(t.GlobalIdx().X) {
		out[t.GlobalIdx().X] = 1
	}
}

// window returns a slice of its own local array: it outlives the call.
func window(x float32) []float32 {
	var buf [4]float32
	buf[0] = x
	return buf[1:3] // want `local`
}

// windowSum keeps its local array inside.
func windowSum(x float32) float32 {
	var buf [4]float32
	buf[0] = x
	s := buf[0:2]
	return s[0] + s[1]
}

// cell returns a pointer to its own local variable.
func cell(x float32) *float32 {
	v := x
	p := &v
	return p // want `local`
}

//gpu:kernel
func LocalEscapes(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	w := window(out[i])
	out[i] = w[0] + *cell(out[i])
}

//gpu:kernel
func LocalStaysLocal(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	out[i] = windowSum(out[i])
}

// scaleEach is a generic device function.
func scaleEach[T int32 | float32](xs []T, a T, i int) {
	if i < len(xs) {
		xs[i] *= a
	}
}

//gpu:kernel
func GenericHelper(t gpu.Thread, out []float32) {
	scaleEach(out, 2, t.GlobalIdx().X)
}

//gpu:kernel
func MapParam(t gpu.Thread, m map[int]float32, out []float32) { // want `map`
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel
func StringParam(t gpu.Thread, name string, out []float32) { // want `string`
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel
func PointerParam(t gpu.Thread, p *vec2, out []float32) { // want `\*heldout.vec2|pointer|parameter`
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel
func StructParam(t gpu.Thread, p vec2, out []float32) {
	out[t.GlobalIdx().X] = p.X + p.Y
}

//gpu:kernel
func WithResult(t gpu.Thread, out []float32) int { // want `result`
	return 0
}

/* // want `block` */ //gpu:kernel block=64,2
func WiderThanUsed(t gpu.Thread, out []float32) {
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel block=64
func Fixed64(t gpu.Thread, out []float32) {
	out[t.GlobalIdx().X] = 1
}

//gpu:kernel grid=1
func OneBlock(t gpu.Thread, out []float32) {
	out[t.ThreadIdx().X] = 1
}

//gpu:kernel
func TwoD(t gpu.Thread, w int, out []float32) {
	g := t.GlobalIdx()
	out[g.Y*w+g.X] = 1
}

//gpu:kernel
func Saxpy(t gpu.Thread, a float32, x, y []float32) {
	i := t.GlobalIdx().X
	if i < len(y) {
		y[i] += a * x[i]
	}
}

func notKernel(t gpu.Thread, out []float32) {}
