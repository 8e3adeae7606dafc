package env

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestResidentBytes(t *testing.T) {
	n, err := ResidentBytes(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if n < 1<<20 {
		t.Errorf("ResidentBytes(self) = %d, want at least 1 MiB for a running Go test", n)
	}
	if _, err := ResidentBytes(-1); err == nil || !strings.HasPrefix(err.Error(), "env: ") {
		t.Errorf("ResidentBytes(-1): error %v, want one starting env: ", err)
	}
}

// ProcessCPU of this process agrees with getrusage's user and system
// time, to the 10 ms tick of /proc/PID/stat.
func TestProcessCPU(t *testing.T) {
	var sink uint64
	for i := range uint64(1 << 26) { // some CPU time to count
		sink += i * i
	}
	_ = sink
	got, err := ProcessCPU(os.Getpid())
	var ru syscall.Rusage
	if rerr := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || rerr != nil {
		t.Fatal(err, rerr)
	}
	want := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	if got <= 0 || got > want+10*time.Millisecond || got < want-30*time.Millisecond {
		t.Errorf("ProcessCPU(self) = %v, getrusage says %v", got, want)
	}
	if _, err := ProcessCPU(-1); err == nil || !strings.HasPrefix(err.Error(), "env: ") {
		t.Errorf("ProcessCPU(-1): error %v, want one starting env: ", err)
	}
}
