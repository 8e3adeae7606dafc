//go:build !unix

package env

import (
	"fmt"
	"runtime"
)

// ProcessUsage is not read outside Unix systems: it returns an error
// naming the system.
func ProcessUsage() (Usage, error) {
	return Usage{}, fmt.Errorf("env: process usage is not read on %s", runtime.GOOS)
}
