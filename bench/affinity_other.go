//go:build !linux

package bench

import (
	"fmt"
	"runtime"
)

// cpuMask stands for a thread's processor mask, which is only read and set
// on Linux.
type cpuMask struct{}

var errNoAffinity = fmt.Errorf("bench: thread affinity is not supported on %s", runtime.GOOS)

func threadAffinity() (cpuMask, error) { return cpuMask{}, errNoAffinity }
func setThreadAffinity(cpuMask) error  { return errNoAffinity }
func pinThread(int) error              { return errNoAffinity }
func allowedCPUs() ([]int, error)      { return nil, errNoAffinity }
