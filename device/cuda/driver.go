package cuda

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// driver is the part of the CUDA driver API (libcuda.so.1) the backend uses,
// resolved with purego: no cgo, so a CGO_ENABLED=0 binary runs on any Linux
// machine and finds the driver at run time.
type driver struct {
	lib uintptr

	cuInit                     uintptr
	cuDriverGetVersion         uintptr
	cuDeviceGetCount           uintptr
	cuDeviceGet                uintptr
	cuDeviceGetName            uintptr
	cuDeviceGetAttribute       uintptr
	cuDeviceTotalMem           uintptr
	cuDevicePrimaryCtxRetain   uintptr
	cuDevicePrimaryCtxRelease  uintptr
	cuCtxSetCurrent            uintptr
	cuCtxSynchronize           uintptr
	cuMemGetInfo               uintptr
	cuMemAlloc                 uintptr
	cuMemFree                  uintptr
	cuMemcpyHtoD               uintptr
	cuMemcpyDtoH               uintptr
	cuMemcpyDtoD               uintptr
	cuMemsetD8                 uintptr
	cuModuleLoadDataEx         uintptr
	cuModuleUnload             uintptr
	cuModuleGetFunction        uintptr
	cuLaunchKernel             uintptr
	cuEventCreate              uintptr
	cuEventDestroy             uintptr
	cuEventRecord              uintptr
	cuEventSynchronize         uintptr
	cuEventElapsedTime         uintptr
	cuGetErrorName             uintptr
	cuGetErrorString           uintptr
	cuFuncGetAttribute         uintptr
	cuOccupancyMaxPotentialBSz uintptr
	cuEventQuery               uintptr
	cuStreamCreate             uintptr
	cuStreamDestroy            uintptr
	cuMemcpyHtoDAsync          uintptr
}

// libName is the soname of the CUDA driver library. GPUKVET_LIBCUDA may name
// another path (a test uses it to prove the "no driver" error).
const libName = "libcuda.so.1"

// loadDriver opens libcuda and resolves every entry point the backend uses.
func loadDriver(path string) (*driver, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("cuda: no NVIDIA driver: cannot load %s: %v", path, err)
	}
	d := &driver{lib: lib}
	syms := []struct {
		fn   *uintptr
		name string
	}{
		{&d.cuInit, "cuInit"},
		{&d.cuDriverGetVersion, "cuDriverGetVersion"},
		{&d.cuDeviceGetCount, "cuDeviceGetCount"},
		{&d.cuDeviceGet, "cuDeviceGet"},
		{&d.cuDeviceGetName, "cuDeviceGetName"},
		{&d.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
		{&d.cuDeviceTotalMem, "cuDeviceTotalMem_v2"},
		{&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
		{&d.cuCtxSetCurrent, "cuCtxSetCurrent"},
		{&d.cuCtxSynchronize, "cuCtxSynchronize"},
		{&d.cuMemGetInfo, "cuMemGetInfo_v2"},
		{&d.cuMemAlloc, "cuMemAlloc_v2"},
		{&d.cuMemFree, "cuMemFree_v2"},
		{&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
		{&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2"},
		{&d.cuMemcpyDtoD, "cuMemcpyDtoD_v2"},
		{&d.cuMemsetD8, "cuMemsetD8_v2"},
		{&d.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
		{&d.cuModuleUnload, "cuModuleUnload"},
		{&d.cuModuleGetFunction, "cuModuleGetFunction"},
		{&d.cuLaunchKernel, "cuLaunchKernel"},
		{&d.cuEventCreate, "cuEventCreate"},
		{&d.cuEventDestroy, "cuEventDestroy_v2"},
		{&d.cuEventRecord, "cuEventRecord"},
		{&d.cuEventSynchronize, "cuEventSynchronize"},
		{&d.cuEventElapsedTime, "cuEventElapsedTime"},
		{&d.cuGetErrorName, "cuGetErrorName"},
		{&d.cuGetErrorString, "cuGetErrorString"},
		{&d.cuFuncGetAttribute, "cuFuncGetAttribute"},
		{&d.cuOccupancyMaxPotentialBSz, "cuOccupancyMaxPotentialBlockSize"},
		{&d.cuEventQuery, "cuEventQuery"},
		{&d.cuStreamCreate, "cuStreamCreate"},
		{&d.cuStreamDestroy, "cuStreamDestroy_v2"},
		{&d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
	}
	for _, s := range syms {
		p, err := purego.Dlsym(lib, s.name)
		if err != nil || p == 0 {
			return nil, fmt.Errorf("cuda: the NVIDIA driver %s lacks %s (driver too old?)", path, s.name)
		}
		*s.fn = p
	}
	return d, nil
}

// CUresult values the backend treats specially.
const (
	cudaSuccess          = 0
	cudaErrOutOfMemory   = 2
	cudaErrNotInit       = 3
	cudaErrNoDevice      = 100
	cudaErrInvalidDevice = 101
	cudaErrInvalidPTX    = 218
	cudaErrNotReady      = 600
	cudaErrIllegalAddr   = 700
	cudaErrLaunchFailed  = 719
)

// call invokes a driver entry point and turns a non-zero CUresult into an
// error naming the call. Like purego.SyscallN, it keeps what its uintptr
// arguments point to on the heap and alive for the duration of the call.
//
//go:uintptrescapes
func (d *driver) call(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if res := int32(r); res != cudaSuccess {
		return &Error{Call: name, Code: int(res), Name: d.errName(res), Text: d.errString(res)}
	}
	return nil
}

func (d *driver) errName(res int32) string {
	var s *byte
	purego.SyscallN(d.cuGetErrorName, uintptr(res), uintptr(unsafe.Pointer(&s)))
	if s == nil {
		return fmt.Sprintf("CUDA_ERROR_%d", res)
	}
	return goString(s)
}

func (d *driver) errString(res int32) string {
	var s *byte
	purego.SyscallN(d.cuGetErrorString, uintptr(res), uintptr(unsafe.Pointer(&s)))
	if s == nil {
		return "unknown error"
	}
	return goString(s)
}

// Error is a failed CUDA driver call.
type Error struct {
	Call string // the driver entry point, e.g. "cuMemAlloc"
	Code int    // the CUresult
	Name string // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Text string // the driver's description
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%s, %d)", e.Call, e.Text, e.Name, e.Code)
}

// isCode reports whether err is a driver error with the given CUresult.
func isCode(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// goString copies a NUL-terminated C string.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	var n int
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
