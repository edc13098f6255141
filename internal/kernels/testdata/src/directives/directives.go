package directives

import "github.com/gpukvet/gpukvet/gpu"

//gpu:kernel block=0
func ZeroBlock(t gpu.Thread) {}

//gpu:kernel block=a
func LetterBlock(t gpu.Thread) {}

//gpu:kernel block=1,2,3,4
func FourDims(t gpu.Thread) {}

//gpu:kernel threads=64
func UnknownOption(t gpu.Thread) {}

//gpu:kernel block=64 block=32
func OptionTwice(t gpu.Thread) {}

//gpu:kernel
//gpu:device
func TwoDirectives(t gpu.Thread) {}

//gpu:kernal
func Misspelled(t gpu.Thread) {}

//gpu:device fast
func DeviceWithOption(t gpu.Thread) {}

//gpu:kernel block=16,16
func FlatButTwoDBlock(t gpu.Thread, out []int) { // want FlatButTwoDBlock:"gpu kernel dims=1 block=16,16,1"
	out[t.GlobalIdx().X] = 0
}

//gpu:kernel
type NotAFunc int

func body() {
	//gpu:device
	_ = 0
}

//gpu:kernel block=256 grid=4,1,1
func Fine(t gpu.Thread, out []int) { // want Fine:"gpu kernel dims=1 block=256,1,1 grid=4,1,1"
	out[t.GlobalIdx().X] = 0
}
