package hostsvc

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Goroutine(t gpu.Thread, out []int) {
	go work(out) // want `go statement: kernel code cannot start goroutines`
}

//gpu:kernel
func Defer(t gpu.Thread, out []int) {
	defer work(out) // want `defer statement: kernel code cannot defer calls`
}

//gpu:kernel
func Channels(t gpu.Thread, out []int) {
	var ch chan int // want `variable ch has type chan int: kernel code cannot use a channel`
	ch <- 1         // want `channel send`
	out[0] = <-ch   // want `channel receive`
	select {}       // want `select statement`
}

//gpu:kernel
func Println(t gpu.Thread, out []int) {
	println(out[0]) // want `println writes to the host's standard error`
}

func work(out []int) { out[0]++ }

//gpu:kernel
func Good(t gpu.Thread, out []int) {
	work(out)
}
