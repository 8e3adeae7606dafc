//go:build !unix

package transport

// processUsage is not implemented on this platform; it returns zeros.
func processUsage() (user, sys float64, maxRSS int64) { return 0, 0, 0 }
