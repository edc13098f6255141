// Package gpu is the kernel-side API of the gpukvet Go kernel dialect.
//
// A kernel is a top-level function whose doc comment holds the directive
// //gpu:kernel and whose first parameter is a [Thread]:
//
//	//gpu:kernel
//	func Saxpy(t gpu.Thread, a float32, x, y []float32) {
//		i := t.GlobalIdx().X
//		if i < len(y) {
//			y[i] = a*x[i] + y[i]
//		}
//	}
//
// The functions of this package run natively on the cpu backend of package
// device, where every thread is a goroutine; the GPU backends replace them by
// the corresponding hardware instructions. See DIALECT.md for the full contract.
package gpu
