package constructs

import "github.com/gpukvet/gpukvet/gpu"

// Control uses switch, labelled loops, break, continue and early return.
//
//gpu:kernel
func Control(t gpu.Thread, n int, out []int) {
	i := t.GlobalIdx().X
	if i >= len(out) {
		return
	}
	acc := 0
outer:
	for j := 0; j < n; j++ {
		switch {
		case j%3 == 0:
			continue
		case j > 50:
			break outer
		}
		switch j & 3 {
		case 1:
			acc += j
		case 2, 3:
			acc -= j
			fallthrough
		default:
			acc++
		}
		for k := 0; ; k++ {
			if k*k > j {
				break
			}
			acc += k
		}
	}
	for acc > 1000 {
		acc /= 2
	}
	out[i] = acc
}

// Point is a struct passed by value and kept in local memory.
type Point struct {
	X, Y  float32
	Flag  bool
	Count int
	ID    uint16
}

// Structs takes a struct parameter and uses local arrays and structs.
//
//gpu:kernel
func Structs(t gpu.Thread, p Point, pts []Point, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) || i >= len(pts) {
		return
	}
	var local [8]float32
	for k := range local {
		local[k] = float32(k) * p.X
	}
	q := pts[i]
	q.X += p.Y
	if p.Flag {
		q.Count += p.Count
	}
	pts[i] = q
	pts[i].ID = p.ID + 1
	arr := [4]int{1, 2, 3, 4}
	j := i % 4
	out[i] = local[i%8] + q.X + float32(q.Count) + float32(arr[j])
	s := local[2:6]
	out[i] += s[1] + float32(len(s))
}

// pair returns two results.
func pair(x int) (int, bool) {
	return x * 2, x > 10
}

// sum is a generic device function.
func sum[T int32 | float64](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Generic calls generic device functions and multi-result functions.
//
//gpu:kernel
func Generic(t gpu.Thread, a []int32, b []float64, out []float64) {
	i := t.GlobalIdx().X
	if i >= len(out) {
		return
	}
	v, big := pair(i)
	r := float64(sum(a)) + sum(b[:len(b)/2])
	if big {
		r += float64(v)
	}
	out[i] = r
}

// Panics traps explicitly and through bounds.
//
//gpu:kernel
func Panics(t gpu.Thread, x []int, out []int) {
	i := t.GlobalIdx().X
	if x[0] < 0 {
		panic("negative")
	}
	y := x[1:i]
	z := x[: i : i+1]
	out[i] = x[i]/x[1] + y[len(y)-1] + cap(z)
}

// Pointers uses pointers to device memory and to locals.
//
//gpu:kernel
func Pointers(t gpu.Thread, x []float32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		p := &x[i]
		*p *= 2
		v := float32(1)
		bump(&v)
		*p += v
		arr := (*[2]float32)(x)
		arr[1] = 0
	}
}

func bump(p *float32) { *p += 1 }

// Celsius is a named float type.
type Celsius float32

// Ranges uses range over ints, arrays and slices, named types and labelled
// continue.
//
//gpu:kernel
func Ranges(t gpu.Thread, xs []Celsius, out []float32) {
	i := t.GlobalIdx().X
	if i >= len(out) {
		return
	}
	var acc Celsius
	for k := range 4 {
		acc += Celsius(k)
	}
	w := [3]float32{0.5, 0.25, 0.25}
	for k, v := range w {
		acc += Celsius(v * float32(k))
	}
rows:
	for j, x := range xs {
		if j > 8 {
			break
		}
		for range 2 {
			if x < 0 {
				continue rows
			}
			acc += x
		}
	}
	switch c := acc; {
	case c > 100:
		acc = 100
	case c < -100:
		acc = -100
	}
	out[i] = float32(acc)
}
