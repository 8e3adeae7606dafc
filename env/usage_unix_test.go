//go:build unix

package env

import "testing"

// After some work of its own, the process has used CPU time and holds
// resident memory.
func TestProcessUsage(t *testing.T) {
	var x uint64 = 1
	for i := range 1 << 22 {
		x = x*6364136223846793005 + uint64(i)
	}
	sinkUint = x
	u, err := ProcessUsage()
	if err != nil {
		t.Fatal(err)
	}
	if u.User < 0 || u.System < 0 || u.CPU() != u.User+u.System || u.CPU() == 0 {
		t.Errorf("CPU time user %v, system %v, CPU() %v", u.User, u.System, u.CPU())
	}
	if u.MaxRSS < 1<<20 {
		t.Errorf("MaxRSS %d bytes, want at least 1 MiB for a running Go test", u.MaxRSS)
	}
	if u.MinorFaults <= 0 {
		t.Errorf("MinorFaults %d, want some for a process that touched its heap", u.MinorFaults)
	}
	if p := PeakRSS(); p < 1<<20 {
		t.Errorf("PeakRSS %d bytes, want at least 1 MiB", p)
	}
}

var sinkUint uint64
