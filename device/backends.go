package device

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/device/cuda"
	"github.com/gpukvet/gpukvet/device/vulkan"
)

// backends lists every backend built into this version of gpukvet, by
// name, in the order Open tries them when GPUKVET_DEVICE is unset. A new
// backend package provides `func Open() (backend.Backend, error)` and takes
// its place here (and leaves notBuilt). auto, when set, is what Open tries
// instead of open with GPUKVET_DEVICE unset (vulkan's passes over a Vulkan
// device that runs on the CPU, such as lavapipe: there the cpu backend is
// the better choice).
var backends = []struct {
	name string
	open func() (backend.Backend, error)
	auto func() (backend.Backend, error)
}{
	{"cuda", cuda.Open, nil},
	{"vulkan", vulkan.Open, vulkan.OpenGPU},
	{"cpu", cpu.Open, nil},
}

// notBuilt names the backends DIALECT.md lets GPUKVET_DEVICE choose that
// this version of gpukvet does not build, so that choosing one says so
// rather than calling the name unknown.
var notBuilt = []string{"hip"}

// Open opens the backend that the environment variable GPUKVET_DEVICE names
// (cuda, vulkan or cpu); a named backend that does not work is an error,
// never a silent fallback (hip, which DIALECT.md reserves, is refused as not
// built in). With GPUKVET_DEVICE unset or empty, Open returns
// the first GPU backend that works (cuda, then vulkan on a GPU), else cpu;
// Device.Backend says which.
func Open(opts ...Option) (*Device, error) {
	if name := os.Getenv("GPUKVET_DEVICE"); name != "" {
		d, err := OpenBackend(name, opts...)
		if err != nil {
			return nil, fmt.Errorf("%w (chosen by GPUKVET_DEVICE)", err)
		}
		return d, nil
	}
	var errs []error
	for _, b := range backends {
		open := b.open
		if b.auto != nil {
			open = b.auto
		}
		be, err := open()
		if err == nil {
			return newDevice(be, opts)
		}
		errs = append(errs, fmt.Errorf("backend %s: %w", b.name, err))
	}
	return nil, fmt.Errorf("device.Open: no backend works: %w", errors.Join(errs...))
}

// OpenBackend opens the backend of the given name ("cuda", "vulkan" or
// "cpu") whatever GPUKVET_DEVICE says, for programs that compare backends.
func OpenBackend(name string, opts ...Option) (*Device, error) {
	for _, b := range backends {
		if b.name != name {
			continue
		}
		be, err := b.open()
		if err != nil {
			return nil, fmt.Errorf("device.Open: backend %s does not work here: %w", name, err)
		}
		return newDevice(be, opts)
	}
	if slices.Contains(notBuilt, name) {
		return nil, fmt.Errorf("device.Open: backend %s is not available: it is not built into this version of gpukvet (built in: %s)", name, strings.Join(Backends(), ", "))
	}
	return nil, fmt.Errorf("device.Open: unknown backend %q (want one of %s)", name, strings.Join(Backends(), ", "))
}

// New returns a Device over a backend the caller opened: one built outside
// this module, or a test double. GPUKVET_DEVICE does not apply; the other
// settings (GPUKVET_TIMEOUT, GPUKVET_VALIDATE) and opts do.
func New(be backend.Backend, opts ...Option) (*Device, error) {
	if be == nil {
		return nil, errors.New("device.New: nil backend")
	}
	return newDevice(be, opts)
}

// Backends returns the names of the backends built into this version of
// gpukvet, in the order Open tries them; whether one works here is known
// only by opening it.
func Backends() []string {
	var names []string
	for _, b := range backends {
		names = append(names, b.name)
	}
	return names
}
