// Package gpu is a stub of github.com/gpukvet/gpukvet/gpu for the ownership
// tests: the exported names and signatures of DIALECT.md, no behavior.
package gpu

type Dim3 struct{ X, Y, Z int }

type Thread struct{ id int }

func (t Thread) ThreadIdx() Dim3 { return Dim3{} }
func (t Thread) BlockIdx() Dim3  { return Dim3{} }
func (t Thread) BlockDim() Dim3  { return Dim3{} }
func (t Thread) GridDim() Dim3   { return Dim3{} }
func (t Thread) GlobalIdx() Dim3 { return Dim3{} }
func (t Thread) Barrier()        {}

func Shared[T any](t Thread) *T { return new(T) }
