//go:build unix

// Package cputime reads the processor time the process has used, which
// benchmarks report beside wall time: a loaded machine inflates it far
// less than wall time.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the processor time the process has used, user and
// system, over all its threads; 0 where the system does not say.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
