package kerngen

// Known lists the mismatches between a backend and Go that the generated
// suites found and that others are fixing: "backend kernel slot" → what
// goes wrong. A listed mismatch does not fail the tests; a listed one
// that no longer happens does, so that the list cannot go stale. The
// backends are "kir" (the kernel-IR interpreter) and the device backends
// by name.
var Known = map[string]string{}
