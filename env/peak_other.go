//go:build !linux

package env

// ResetPeakRSS is only supported on Linux; elsewhere it reports false and
// the peak stays the process's peak so far.
func ResetPeakRSS() bool { return false }

// PeakRSS returns the process's peak resident set size in bytes since it
// started (Usage.MaxRSS; ResetPeakRSS restarts it on Linux only), or 0
// where it cannot be read.
func PeakRSS() int64 {
	u, _ := ProcessUsage() // zero on error: 0 as documented
	return u.MaxRSS
}
