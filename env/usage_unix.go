//go:build unix

package env

import (
	"fmt"
	"runtime"
	"syscall"
	"time"
)

// ProcessUsage reads this process's Usage with getrusage(2) RUSAGE_SELF.
// Outside Unix systems it returns an error naming the system.
func ProcessUsage() (Usage, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{}, fmt.Errorf("env: getrusage: %w", err)
	}
	u := Usage{User: time.Duration(ru.Utime.Nano()), System: time.Duration(ru.Stime.Nano()), MaxRSS: int64(ru.Maxrss),
		MinorFaults: int64(ru.Minflt)}
	if runtime.GOOS != "darwin" { // Linux and the BSDs report KiB, macOS bytes
		u.MaxRSS *= 1024
	}
	return u, nil
}
