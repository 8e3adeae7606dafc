//go:build linux

package env

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

// ThreadCPUTime is the CPU time of the calling thread (Linux:
// clock_gettime(2) CLOCK_THREAD_CPUTIME_ID); it stops while the thread
// waits for a CPU. The caller locks itself to its thread
// (runtime.LockOSThread) for two readings to be comparable. Elsewhere it
// is an error naming the system.
func ThreadCPUTime() (time.Duration, error) {
	const clockThreadCPUTimeID = 3 // linux/time.h
	var ts syscall.Timespec
	_, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		return 0, fmt.Errorf("env: clock_gettime CLOCK_THREAD_CPUTIME_ID: %w", e)
	}
	return time.Duration(ts.Nano()), nil
}
