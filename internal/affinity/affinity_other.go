//go:build !linux

package affinity

import (
	"fmt"
	"runtime"
)

// Pin is only supported on Linux; elsewhere it returns an error.
func Pin(cpus []int) (restore func() error, err error) {
	return nil, fmt.Errorf("affinity: pin: not supported on %s", runtime.GOOS)
}
