package cuda

import "github.com/gpukvet/gpukvet/device/backend"

// checkStale is backend.CheckStale: a kernel whose Go sources changed since
// `gpukvet gen` compiled them is refused with an error saying so.
func checkStale(k *backend.Kernel) error { return backend.CheckStale(k) }
