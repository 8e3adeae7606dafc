package ab

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hardwareCounters reports whether the kernel lets this process count its
// own user-space instructions with a hardware counter: nil when
// perf_event_open(2) opens one, else why not (a virtual machine without a
// virtual PMU answers ENOENT or EOPNOTSUPP; perf_event_paranoid can
// answer EACCES).
func hardwareCounters() error {
	attr := unix.PerfEventAttr{
		Type:   unix.PERF_TYPE_HARDWARE,
		Config: unix.PERF_COUNT_HW_INSTRUCTIONS,
		Bits:   unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
	}
	attr.Size = uint32(unsafe.Sizeof(attr))
	fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		return fmt.Errorf("perf_event_open: %w", err)
	}
	unix.Close(fd)
	return nil
}
