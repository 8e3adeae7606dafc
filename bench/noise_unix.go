//go:build unix

package bench

import (
	"fmt"
	"syscall"
	"unsafe"
)

// probeBuffer returns a buffer of n uint32 for the chase and stream probes,
// mapped outside the Go heap (anonymous mmap) so that it neither counts in
// the live heap that sets the run's GC rhythm (see LiveHeapBytes) nor needs
// scanning, and the function that unmaps it.
func probeBuffer(n int) ([]uint32, func(), error) {
	b, err := syscall.Mmap(-1, 0, 4*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, fmt.Errorf("bench: probe buffer: mmap %d bytes: %w", 4*n, err)
	}
	buf := unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n)
	return buf, func() { _ = syscall.Munmap(b) }, nil // the meter is done with it; an unmap error leaves 8 MiB mapped, nothing worse
}
