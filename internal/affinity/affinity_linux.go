//go:build linux

package affinity

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Pin restricts every thread of the process, and so every thread it
// starts later (a new thread inherits its creator's mask), to the given
// processors, with sched_setaffinity(2). An empty list is an error, and so
// is a processor the process may not use. restore puts the previous mask
// back on every thread.
func Pin(cpus []int) (restore func() error, err error) {
	if len(cpus) == 0 {
		return nil, fmt.Errorf("affinity: pin: no processors given")
	}
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		return nil, fmt.Errorf("affinity: pin: %w", err)
	}
	var set unix.CPUSet
	for _, c := range cpus {
		if c < 0 || c >= 1024 || !allowed.IsSet(c) {
			return nil, fmt.Errorf("affinity: pin: processor %d is not available (this process may use %d processors)", c, allowed.Count())
		}
		set.Set(c)
	}
	if err := setAll(&set); err != nil {
		return nil, err
	}
	return func() error { return setAll(&allowed) }, nil
}

// setAll applies set to every thread of the process.
func setAll(set *unix.CPUSet) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("affinity: pin: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH { // ESRCH: the thread has exited
			return fmt.Errorf("affinity: pin thread %d: %w", tid, err)
		}
	}
	return nil
}
