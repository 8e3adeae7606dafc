//go:build !linux

package bench

import (
	"fmt"
	"runtime"
)

// PinCPUs is only supported on Linux; elsewhere it returns an error.
func PinCPUs(cpus []int) (restore func() error, err error) {
	return nil, fmt.Errorf("bench: pin: not supported on %s", runtime.GOOS)
}
