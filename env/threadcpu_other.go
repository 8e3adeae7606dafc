//go:build !linux

package env

import (
	"fmt"
	"runtime"
	"time"
)

// ThreadCPUTime is the calling thread's CPU time on Linux; here it is an
// error naming the system.
func ThreadCPUTime() (time.Duration, error) {
	return 0, fmt.Errorf("env: thread CPU time is not read on %s", runtime.GOOS)
}
