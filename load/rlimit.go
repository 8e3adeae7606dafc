package load

import (
	"fmt"
	"syscall"
)

// RaiseOpenFiles raises the process's soft RLIMIT_NOFILE to its hard limit
// and fails when that is still below need descriptors: each connection a
// run opens takes one (two when the server runs in the same process).
func RaiseOpenFiles(need uint64) error {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("load: getrlimit: %w", err)
	}
	if rl.Cur < rl.Max {
		rl.Cur = rl.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
			return fmt.Errorf("load: raise open file limit to %d: %w", rl.Max, err)
		}
	}
	if rl.Cur < need {
		return fmt.Errorf("load: open file limit %d is below the %d this run needs (raise it with ulimit -n, or use fewer -conns)", rl.Cur, need)
	}
	return nil
}
