package load

import (
	"fmt"
	"syscall"

	"github.com/serbench/serbench/transport/server"
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

// pushDescriptors is the file descriptors push load of o needs: one per
// connection, two when the server runs in this process (inProcess), and
// 64 besides.
func pushDescriptors(conns int, inProcess bool) uint64 {
	need := uint64(max(conns, 0)) + 64
	if inProcess {
		need += uint64(max(conns, 0))
	}
	return need
}

// checkPushDescriptors returns an error naming -conns and the hard open
// file limit when push load of conns connections cannot fit under it.
// An unreadable limit is not an error (RaiseOpenFiles reports it).
func checkPushDescriptors(conns int, inProcess bool) error {
	_, hard, err := server.OpenFileLimits()
	if err != nil {
		return nil
	}
	if err := server.CheckDescriptors("-conns", conns, pushDescriptors(conns, inProcess), hard); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}
