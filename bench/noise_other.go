//go:build !unix

package bench

import (
	"fmt"
	"runtime"
	"time"
)

// probeBuffer returns a buffer of n uint32 for the chase and stream probes.
// Without mmap it lives on the Go heap, where it adds to the live heap
// while the meter runs.
func probeBuffer(n int) ([]uint32, func(), error) {
	return make([]uint32, n), func() {}, nil
}

// processCPUTime is not read outside Unix systems.
func processCPUTime() (time.Duration, error) {
	return 0, fmt.Errorf("bench: process CPU time is not read on %s", runtime.GOOS)
}
