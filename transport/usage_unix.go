//go:build unix

package transport

import (
	"runtime"
	"syscall"
)

// processUsage returns the process's user and system CPU seconds and its peak
// resident set size in bytes, from getrusage(RUSAGE_SELF).
func processUsage() (user, sys float64, maxRSS int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, 0
	}
	user = float64(ru.Utime.Sec) + float64(ru.Utime.Usec)/1e6
	sys = float64(ru.Stime.Sec) + float64(ru.Stime.Usec)/1e6
	maxRSS = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" { // Linux and the BSDs report KiB, macOS bytes
		maxRSS *= 1024
	}
	return user, sys, maxRSS
}
