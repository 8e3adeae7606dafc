package server

import (
	"fmt"
	"syscall"
)

// DescriptorReserve is how many file descriptors the defaults of MaxConns,
// Hub.MaxSubscribers and Hub.MaxStreams leave under the process's open
// file limit: for the listener, files, the child processes' pipes and the
// connections waiting in the accept queue.
const DescriptorReserve = 256

// OpenFileLimit returns the process's soft RLIMIT_NOFILE (which the Go
// runtime raises to the hard limit at start), or 0 when it cannot be read.
func OpenFileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}

// FitDescriptors returns n, lowered to OpenFileLimit less
// DescriptorReserve when that is smaller (and at least 1), so that a
// default cap is reached before the process runs out of descriptors
// ("too many open files", which net/http answers by waiting and retrying
// accept). An unknown limit leaves n as it is.
func FitDescriptors(n int) int {
	if l := OpenFileLimit(); l > 0 {
		return max(1, min(n, l-DescriptorReserve))
	}
	return n
}

// OpenFileLimits returns the process's soft and hard RLIMIT_NOFILE.
func OpenFileLimits() (soft, hard uint64, err error) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, 0, fmt.Errorf("server: getrlimit RLIMIT_NOFILE: %w", err)
	}
	return rl.Cur, rl.Max, nil
}

// CheckDescriptors returns an error when need file descriptors, asked for
// by n of flag (such as "-max-conns" or "-conns"), exceed hard, the hard
// RLIMIT_NOFILE: the soft limit can be raised to the hard one, not
// beyond, so such a run would fail part way with "too many open files".
// The error names n, the flag, need and the limit.
func CheckDescriptors(flag string, n int, need, hard uint64) error {
	if need <= hard {
		return nil
	}
	return fmt.Errorf("%s %d needs %d file descriptors, above the hard open file limit (RLIMIT_NOFILE) %d: lower %s, or raise the hard limit (ulimit -Hn, as root) or split the load over processes", flag, n, need, hard, flag)
}

// CheckCaps returns the first of o's connection and subscriber caps that
// the process's hard open file limit cannot hold (CheckDescriptors with
// DescriptorReserve descriptors besides them), named by its flag in
// flags (keys "max-conns", "max-subscribers"; a cap missing from flags is
// not checked). An unreadable limit is not an error.
func CheckCaps(o Options, flags map[string]bool) error {
	_, hard, err := OpenFileLimits()
	if err != nil {
		return nil
	}
	for _, c := range []struct {
		flag string
		n    int
	}{{"max-conns", o.MaxConns}, {"max-subscribers", o.Hub.MaxSubscribers}} {
		if !flags[c.flag] {
			continue
		}
		if err := CheckDescriptors("-"+c.flag, c.n, uint64(max(c.n, 0))+DescriptorReserve, hard); err != nil {
			return fmt.Errorf("server: %w", err)
		}
	}
	return nil
}
