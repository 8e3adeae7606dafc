package server

import "syscall"

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
