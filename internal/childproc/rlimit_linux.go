package childproc

import (
	"fmt"
	"syscall"
)

// rlimitName is the rlimit SetLimits sets. On Linux since 4.7, RLIMIT_DATA
// counts private writable mappings, which is where the Go heap and goroutine
// stacks live, so an allocation past it makes the runtime fail with "fatal
// error: runtime: out of memory". RLIMIT_AS does not work for Go: the
// runtime reserves far more address space than it uses, and a Go program
// fails under an RLIMIT_AS of a few hundred MiB before it has allocated
// anything.
//
// A binary built with -race sets none (see RaceEnabled).
var rlimitName = map[bool]string{false: "RLIMIT_DATA", true: ""}[RaceEnabled]

// setRlimit caps the process's data segment at limit bytes (or the hard
// limit already in place, if lower).
func setRlimit(limit uint64) error {
	if RaceEnabled {
		return nil
	}
	rl := syscall.Rlimit{Cur: limit, Max: limit}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_DATA, &old); err == nil && old.Max < limit {
		rl.Cur, rl.Max = old.Max, old.Max
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &rl); err != nil {
		return fmt.Errorf("childproc: setrlimit RLIMIT_DATA %d: %w", limit, err)
	}
	return nil
}
