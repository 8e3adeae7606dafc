//go:build linux

package bench

import (
	"fmt"
	"syscall"
	"unsafe"
)

// cpuMask is a sched_setaffinity(2) mask for up to 1024 processors. The
// system calls are made through package syscall rather than
// golang.org/x/sys/unix, which the root package must not link (deps_test.go).
type cpuMask [1024 / 64]uint64

func (m *cpuMask) set(cpu int)        { m[cpu/64] |= 1 << (cpu % 64) }
func (m *cpuMask) isSet(cpu int) bool { return m[cpu/64]&(1<<(cpu%64)) != 0 }

// cpus lists the processors in m, in increasing order.
func (m *cpuMask) cpus() []int {
	var out []int
	for c := range len(m) * 64 {
		if m.isSet(c) {
			out = append(out, c)
		}
	}
	return out
}

// threadAffinity returns the mask of the calling thread.
func threadAffinity() (cpuMask, error) {
	var m cpuMask
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if e != 0 {
		return m, fmt.Errorf("bench: sched_getaffinity: %w", e)
	}
	return m, nil
}

// setThreadAffinity sets the mask of the calling thread; the caller has
// locked its goroutine to the thread.
func setThreadAffinity(m cpuMask) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if e != 0 {
		return fmt.Errorf("bench: sched_setaffinity %v: %w", m.cpus(), e)
	}
	return nil
}

// pinThread restricts the calling thread to cpu.
func pinThread(cpu int) error {
	if cpu < 0 || cpu >= 1024 {
		return fmt.Errorf("bench: pin thread: processor %d out of range [0, 1023]", cpu)
	}
	var m cpuMask
	m.set(cpu)
	return setThreadAffinity(m)
}

// allowedCPUs lists the processors the calling thread may run on.
func allowedCPUs() ([]int, error) {
	m, err := threadAffinity()
	if err != nil {
		return nil, err
	}
	return m.cpus(), nil
}
