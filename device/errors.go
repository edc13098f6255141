package device

import (
	"errors"
	"fmt"

	"github.com/gpukvet/gpukvet/device/backend"
)

// The kinds of error a program may want to tell apart, for errors.Is. Each
// error the package returns keeps its own message (which names the
// operation, the kernel and the parameter); these only classify it.
var (
	// ErrInvalid: a nil *Device or *Buffer, or one that Open, OpenBackend,
	// New, Alloc or Upload did not make (a zero device.Device{} or
	// device.Buffer[T]{}).
	ErrInvalid = errors.New("invalid device or buffer")
	// ErrClosed: the device was closed.
	ErrClosed = errors.New("device is closed")
	// ErrFreed: the buffer was freed.
	ErrFreed = errors.New("buffer was freed")
	// ErrLaunch: Launch refused its arguments: not a kernel, a wrong count
	// or type of arguments, a host slice or another device's or a freed
	// buffer for a slice parameter, a grid or block shape the kernel or
	// the backend forbids, a kernel whose source uses what kernels cannot.
	ErrLaunch = errors.New("bad launch")
	// ErrTrap: a kernel trapped (an index out of range, a division by
	// zero, a panic); errors.As with a *backend.Trap gives the kernel, the
	// Go position and the thread.
	ErrTrap = backend.ErrTrap
	// ErrTimeout: a wait passed its deadline (GPUKVET_TIMEOUT, WithTimeout,
	// or the context of SyncContext and DownloadContext), or the device
	// became unusable because an earlier one did; errors.As with a
	// *backend.TimeoutError says whether the kernel was stopped.
	ErrTimeout = backend.ErrTimeout
)

// kindError is an error that errors.Is also matches to kind.
type kindError struct {
	err, kind error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.err, e.kind} }

// errorf is fmt.Errorf whose result errors.Is matches to kind as well.
func errorf(kind error, format string, args ...any) error {
	return &kindError{fmt.Errorf(format, args...), kind}
}

// withKind returns err, matched by errors.Is to kind as well; nil for nil.
func withKind(kind, err error) error {
	if err == nil || errors.Is(err, kind) {
		return err
	}
	return &kindError{err, kind}
}
