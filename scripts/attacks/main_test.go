package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// The peak this suite checks is read from /proc/PID/status.
func TestPeakRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	peak, err := peakRSS(os.Getpid())
	if err != nil || peak <= 0 || peak%1024 != 0 {
		t.Fatalf("peakRSS of this process = %d, %v; want a positive number of KiB", peak, err)
	}
	if _, err := statusBytes(os.Getpid(), "NoSuchField:"); err == nil || !strings.Contains(err.Error(), "NoSuchField:") {
		t.Errorf("a missing field: %v, want an error naming it", err)
	}
}

func TestRunNeedsServer(t *testing.T) {
	if err := run(io.Discard, nil); err == nil || !strings.Contains(err.Error(), "-serbench") {
		t.Errorf("run without -serbench: %v, want an error naming the flag", err)
	}
}
