package env

import (
	"runtime/debug"
	"testing"
)

var sink []byte

// On Linux the peak can be read and reset: after 64 MiB are touched and
// given back to the OS, a reset brings the peak down by most of that.
func TestPeakRSS(t *testing.T) {
	sink = make([]byte, 64<<20)
	for i := 0; i < len(sink); i += 4096 {
		sink[i] = 1
	}
	high := vmHWM()
	if high < 64<<20 {
		t.Fatalf("VmHWM %d after touching 64 MiB", high)
	}
	sink = nil
	debug.FreeOSMemory()
	if !ResetPeakRSS() {
		t.Skip("/proc/self/clear_refs is not writable here")
	}
	if low := vmHWM(); low <= 0 || low > high-32<<20 {
		t.Errorf("peak after reset %d, before %d: not reset", low, high)
	}
}
