//go:build !linux

package transport

// ResetPeakRSS is only supported on Linux; elsewhere it reports false and
// the peak stays the process's peak so far.
func ResetPeakRSS() bool { return false }

func peakRSS() int64 { return 0 }
