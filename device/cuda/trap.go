package cuda

import "github.com/gpukvet/gpukvet/internal/gpuabi"

// trapRecordSize is the size of one trap record in device memory; the
// records are decoded by backend.DecodeTrap.
const trapRecordSize = gpuabi.TrapRecordSize
