package backend

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// StopGrace is how long a backend whose wait's context is done gives the
// launched kernels, once asked to stop (their stop words set, or the cpu
// backend's blocks told), to end before it gives up on them. Every backend
// uses the one value, so Close and the Context forms bound their waits
// alike; it is also how long a Close with no deadline of its own (the cpu
// backend's, and package device's on a device without a default deadline)
// waits for launched work before it asks it to stop.
const StopGrace = 2 * time.Second

// StoppedLaunches reads the trap records of launches a GPU backend stopped
// by setting their stop words (recs holds one record per kernel of
// launched, in order), once they have all ended: it returns the
// *TimeoutError that names the kernel stopped in a loop (Stopped set: the
// device stays usable), and the first trap other than the deadline's,
// which the backend keeps for its next Sync. name is the backend's.
func StoppedLaunches(name string, recs []byte, launched []*Kernel, cause error) (*TimeoutError, error) {
	te := &TimeoutError{Kernel: lastLaunched(launched), Err: cause, Stopped: true,
		Detail: fmt.Sprintf("the %s backend stopped it (its outputs are partly written), and the launches after it; the device stays usable", name)}
	var other error
	for i, k := range launched {
		rec := recs[i*gpuabi.TrapRecordSize : (i+1)*gpuabi.TrapRecordSize]
		err := DecodeTrap(rec, k)
		if gpuabi.TrapCode(binary.LittleEndian.Uint32(rec[gpuabi.TrapOffCode:])) == gpuabi.TrapDeadline {
			te.Kernel = k.Name
			te.Detail = fmt.Sprintf("the %s backend stopped it (%v; its outputs are partly written), and the launches after it; the device stays usable", name, err)
			break
		}
		if err != nil && other == nil {
			other = err
		}
	}
	return te, other
}

// NotStopped is the *TimeoutError of launches that a backend could not
// stop after cause (Stopped false: a kernel may still run, so the device
// is unusable); why says what failed, after "the <name> backend".
func NotStopped(name string, launched []*Kernel, cause error, why string) *TimeoutError {
	return &TimeoutError{Kernel: lastLaunched(launched), Err: cause,
		Detail: fmt.Sprintf("the %s backend %s, so the device is unusable; Close this Device and device.Open a new one", name, why)}
}

// StopGraceExpired is NotStopped for launches whose stop words a GPU
// backend set, but that had not all ended StopGrace later.
func StopGraceExpired(name string, launched []*Kernel, cause error) *TimeoutError {
	return NotStopped(name, launched, cause, fmt.Sprintf("asked it to stop, but it did not within %v (a loop the compiler proved finite still runs, or the code predates stop words)", StopGrace))
}

// lastLaunched names the last of launched, the kernel a wait for them all
// waited for.
func lastLaunched(launched []*Kernel) string {
	if n := len(launched); n > 0 {
		return launched[n-1].Name
	}
	return "(none launched)"
}
