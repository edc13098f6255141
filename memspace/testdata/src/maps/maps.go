package maps

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel
func Bad(t gpu.Thread, out []int) {
	m := map[int]int{1: 2} // want `variable m has type map\[int\]int: kernel code cannot use a map \(maps live in host memory\)`
	out[0] = m[1]
	out[1] = lookup()[2] // want `lookup\(...\) has type map\[int\]int: kernel code cannot use a map`
}

func lookup() map[int]int { return nil } // want `device function lookup returns map\[int\]int`

type table struct{ m map[int]int }

//gpu:kernel
func InStruct(t gpu.Thread, out []int) {
	var tb table // want `variable tb has type table: kernel code cannot use a map`
	_ = tb
}

// Good uses a local array where a map would be host memory.
//
//gpu:kernel
func Good(t gpu.Thread, out []int) {
	var m [4]int
	m[1] = 2
	out[0] = m[1]
}
