//go:build !unix

package bench

// probeBuffer returns a buffer of n uint32 for the chase and stream probes.
// Without mmap it lives on the Go heap, where it adds to the live heap
// while the meter runs.
func probeBuffer(n int) ([]uint32, func(), error) {
	return make([]uint32, n), func() {}, nil
}
