//go:build !linux

package childproc

// rlimitName is empty outside Linux: where RLIMIT_DATA does not count
// mmap'd memory (macOS, the BSDs) it would not bound the Go heap, and
// RLIMIT_AS stops a Go program before it starts. debug.SetMemoryLimit, the
// stack limit and the parent's time limit remain.
const rlimitName = ""

func setRlimit(limit uint64) error { return nil }
