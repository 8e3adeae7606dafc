package rundoc

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/serbench/serbench/internal/affinity"
)

// Controls are the process settings a run may change (serbench run
// -gomaxprocs, -gogc, -pin); the zero value changes nothing.
type Controls struct {
	// GOMAXPROCS, when positive, is set for the run; 0 leaves it.
	GOMAXPROCS int
	// GOGC is the GC target percentage (≥ 0) or "off" (ParseGOGC); ""
	// leaves it (GOGC or 100).
	GOGC string
	// Pin lists the processors to pin the process to, comma-separated
	// (ParsePin, Linux sched_setaffinity); "" leaves the affinity.
	Pin string
}

// ParseGOGC reads a GC target as the GOGC variable takes it: a percentage
// ≥ 0, or off (-1, as debug.SetGCPercent takes it).
func ParseGOGC(s string) (int, error) {
	if s == "off" {
		return -1, nil
	}
	pct, err := strconv.Atoi(s)
	if err != nil || pct < 0 {
		return 0, fmt.Errorf("invalid GC target %q (want a percentage ≥ 0, or off)", s)
	}
	return pct, nil
}

// ParsePin reads a comma-separated list of processor numbers ("0,1").
func ParsePin(s string) ([]int, error) {
	var cpus []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("invalid processor list %q (want processor numbers such as 0,1)", s)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

// Apply sets GOMAXPROCS, the GC percentage and the CPU affinity, each only
// when c sets it, and returns a function that puts the previous settings
// back. On error nothing stays changed. Errors are ParseGOGC's, ParsePin's,
// a negative GOMAXPROCS, and the system's refusal to pin.
func (c Controls) Apply() (restore func(), err error) {
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if c.GOMAXPROCS < 0 {
		return func() {}, fmt.Errorf("rundoc: invalid GOMAXPROCS %d (must not be negative)", c.GOMAXPROCS)
	}
	var pct int
	var cpus []int
	if c.GOGC != "" {
		if pct, err = ParseGOGC(c.GOGC); err != nil {
			return func() {}, fmt.Errorf("rundoc: %w", err)
		}
	}
	if c.Pin != "" {
		if cpus, err = ParsePin(c.Pin); err != nil {
			return func() {}, fmt.Errorf("rundoc: %w", err)
		}
	}
	if c.GOMAXPROCS > 0 {
		old := runtime.GOMAXPROCS(c.GOMAXPROCS)
		undo = append(undo, func() { runtime.GOMAXPROCS(old) })
	}
	if c.GOGC != "" {
		old := debug.SetGCPercent(pct)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if cpus != nil {
		back, err := affinity.Pin(cpus)
		if err != nil {
			restore()
			return func() {}, err
		}
		undo = append(undo, func() { back() })
	}
	return restore, nil
}
