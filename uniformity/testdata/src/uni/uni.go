package uni

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Sources(t gpu.Thread, n int, a []float32, c []int32) {
	i := t.GlobalIdx().X
	if i < n { // want `divergent branch: depends on GlobalIdx at line 7`
		a[i] = 0
	}
	if n > 3 || t.BlockIdx().X < n || t.BlockDim().X > len(a) || t.GridDim().X == 2 {
		a[0] = 1
	}
	if t.ThreadIdx().X == 0 { // want `divergent branch: depends on ThreadIdx at line 14`
		a[1] = 2
	}
	old := gpu.AtomicAdd(&c[0], 1)
	if old == 5 { // want `divergent branch: depends on the result of AtomicAdd at line 17`
		a[2] = 3
	}
}

// Y is uniform in a kernel whose block= fixes Y to 1.
//
//gpu:kernel block=64,1
func FlatBlock(t gpu.Thread, n int, a []float32) {
	if t.ThreadIdx().Y < n {
		a[0] = 0
	}
	if t.GlobalIdx().Y < n {
		a[0] = 1
	}
	if t.ThreadIdx().X < n { // want `divergent branch: depends on ThreadIdx at line 33`
		a[1] = 0
	}
}

//gpu:kernel
func SyncDependence(t gpu.Thread, n int, a []float32) {
	x := 0
	if t.ThreadIdx().X < 4 { // want `divergent branch: depends on ThreadIdx`
		x = n
	}
	if x > 2 { // want `divergent branch: depends on ThreadIdx at line 41`
		a[0] = 1
	}
	y := n
	if t.ThreadIdx().X < 4 { // want `divergent branch: depends on ThreadIdx`
		a[1] = 1
	}
	if y > 2 { // rejoined, y not merged
		a[2] = 1
	}
}

//gpu:kernel
func Temporal(t gpu.Thread, n int, a []float32) {
	i := 0
	for ; i < n; i++ {
		if a[t.ThreadIdx().X] > float32(i) { // want `divergent branch: depends on ThreadIdx`
			break
		}
	}
	if i > 2 { // want `divergent branch: depends on a value carried out of a loop that threads leave at different iterations at line 60, which depends on ThreadIdx at line 60`
		a[0] = 1
	}
	j := 0
	for ; j < n; j++ {
		if a[j] > 1 { // want `divergent branch: depends on memory that threads write differently`
			a[t.ThreadIdx().X] = 2 // thread 1 reads what thread j wrote in the last iteration
		}
	}
	if j > 2 {
		a[1] = 1
	}
}

//gpu:kernel
func Memory(t gpu.Thread, n int, a []float32) {
	s := gpu.Shared[[64]float32](t)
	if t.ThreadIdx().X == 0 { // want `divergent branch`
		s[0] = float32(n)
	}
	t.Barrier()
	if s[0] > 1 { // uniform: written once, a barrier before the read
		a[0] = 1
	}
	s[t.ThreadIdx().X] = 1
	if s[3] > 1 { // want `divergent branch: depends on memory that threads write differently`
		a[1] = 1
	}
	t.Barrier()
	if s[3] > 1 {
		a[1] = 1
	}
	var loc [4]int
	if t.ThreadIdx().X == 1 { // want `divergent branch`
		loc[0] = 1
	}
	t.Barrier()
	if loc[0] > 0 { // want `divergent branch: depends on memory that threads write differently`
		a[2] = 1
	}
	var loc2 [4]int
	loc2[n%4] = n
	if loc2[0] > 0 {
		a[3] = 1
	}
}

// twice is uniform in x; scale depends on the thread.
func twice(x int) int { return 2 * x } // want `summary results \[src=false params=1\] writes \[src=false params=0\] barrier=false/0`

func lane(t gpu.Thread, x int) int { return x + t.ThreadIdx().X } // want `summary results \[src=true params=10\]`

func sync(t gpu.Thread, n int) { // want `summary results writes \[src=false params=0\] \[src=false params=0\] barrier=true/10`
	if n > 0 { // want `divergent branch: depends on parameter n`
		t.Barrier()
	}
}

func store(a []float32, i int, v float32) { // want `summary results writes \[src=false params=111\] \[src=false params=0\] \[src=false params=0\] barrier=false/0`
	a[i] = v
}

//gpu:kernel
func Calls(t gpu.Thread, n int, a []float32) {
	if twice(n) > 3 {
		a[0] = 1
	}
	if lane(t, n) > 3 { // want `divergent branch: depends on ThreadIdx`
		a[5] = 1 // a[5] is not a[0]
	}
	sync(t, n)
	sync(t, t.ThreadIdx().X) // want `barrier call with divergent argument 1: ThreadIdx at line 135`
	store(a, 0, 1)
	if a[0] > 0 {
		a[1] = 1
	}
	store(a, t.ThreadIdx().X, 1)
	if a[0] > 0 { // want `divergent branch: depends on memory`
		a[1] = 1
	}
	if t.ThreadIdx().X > 4 { // want `divergent branch`
		t.Barrier() // want `barrier under divergent branch at line 144`
	}
}

//gpu:device
func Lane(t gpu.Thread, x int) int { return x + t.ThreadIdx().X } // want `summary results \[src=true params=10\]`

//gpu:device
func Twice(x int) int { return 2 * x } // want `summary results \[src=false params=1\]`

//gpu:kernel
func CrossBlockFlag(t gpu.Thread, flag []int32, a []float32) {
	if t.BlockIdx().X == 0 {
		gpu.AtomicExchange(&flag[0], 1)
	}
	t.Barrier()
	if flag[0] == 1 { // want `divergent branch: depends on memory updated by AtomicExchange`
		a[0] = 1
	}
	s := gpu.Shared[[4]int32](t)
	gpu.AtomicAdd(&s[0], 1)
	t.Barrier()
	if s[0] > 3 { // every thread of the block counted: uniform after the barrier
		a[1] = 1
	}
}
