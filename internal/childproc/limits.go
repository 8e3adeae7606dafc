package childproc

import (
	"fmt"
	"runtime/debug"
)

// Limits bound a child from the inside. A zero field sets no limit.
type Limits struct {
	// Memory is the soft memory limit in bytes (debug.SetMemoryLimit) and,
	// with Stack and RlimitHeadroom, the rlimit on the data segment where
	// the OS has one (RLIMIT_DATA on Linux, none elsewhere or in a -race binary).
	Memory int64
	// Stack is the largest goroutine stack in bytes (debug.SetMaxStack;
	// Go's own default is 1 GiB on 64-bit systems).
	Stack int64
}

// RlimitHeadroom is added to Limits.Memory and Limits.Stack to make the
// rlimit: the runtime's own mappings, the child's input and the binary's
// data.
const RlimitHeadroom = 256 << 20

// Rlimit returns the rlimit SetLimits sets under l in bytes, 0 if none.
func (l Limits) Rlimit() uint64 {
	if l.Memory <= 0 || rlimitName == "" {
		return 0
	}
	return uint64(l.Memory + max(l.Stack, 0) + RlimitHeadroom)
}

// String names the rlimit SetLimits sets under l, such as
// "RLIMIT_DATA=832 MiB", or "" where there is none.
func (l Limits) String() string {
	if l.Rlimit() == 0 {
		return ""
	}
	return fmt.Sprintf("%s=%d MiB", rlimitName, l.Rlimit()>>20)
}

// SetLimits applies l to this process; a child calls it before the work
// that may run away. Its error is the rlimit's.
func SetLimits(l Limits) error {
	if l.Stack > 0 {
		debug.SetMaxStack(int(l.Stack))
	}
	if l.Memory > 0 {
		debug.SetMemoryLimit(l.Memory)
	}
	if r := l.Rlimit(); r > 0 {
		return setRlimit(r)
	}
	return nil
}
