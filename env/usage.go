package env

import "time"

// Usage is what this process has used of the machine so far, as
// getrusage(2) RUSAGE_SELF reports it: every thread, living or exited.
type Usage struct {
	// User and System are the CPU time spent in user and kernel mode.
	User, System time.Duration
	// MaxRSS is the peak resident set size in bytes since the process
	// started (ru_maxrss, which Linux and the BSDs give in KiB and macOS
	// in bytes). PeakRSS is the peak that ResetPeakRSS can restart.
	MaxRSS int64
	// MinorFaults is the page faults served without I/O (ru_minflt): a
	// first touch of a fresh page, say.
	MinorFaults int64
}

// CPU is User plus System: the process's CPU time.
func (u Usage) CPU() time.Duration { return u.User + u.System }
