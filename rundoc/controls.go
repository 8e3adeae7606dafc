package rundoc

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"

	"github.com/serbench/serbench/internal/affinity"
)

// Controls are the process settings a run may change; the zero value
// changes nothing. Their values are typed: reading them from text is the
// caller's job (serbench run's -gomaxprocs, -gogc and -pin).
type Controls struct {
	// GOMAXPROCS, when positive, is set for the run; 0 leaves it.
	GOMAXPROCS int
	// GOGC, when not nil, is the GC target percentage: ≥ 0, or -1 for off
	// (as debug.SetGCPercent takes it); nil leaves it (GOGC or 100).
	GOGC *int
	// Pin, when not empty, lists the processor numbers (≥ 0) to pin the
	// process to (Linux sched_setaffinity); empty leaves the affinity.
	Pin []int
}

// Apply sets GOMAXPROCS, the GC percentage and the CPU affinity, each only
// when c sets it, and returns a function that puts the previous settings
// back. On error nothing stays changed. Errors are a value out of range
// (a negative GOMAXPROCS, a GOGC below -1, a negative processor), named
// with the value, and the system's refusal to pin.
func (c Controls) Apply() (restore func(), err error) {
	if err := c.check(); err != nil {
		return func() {}, err
	}
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if c.GOMAXPROCS > 0 {
		old := runtime.GOMAXPROCS(c.GOMAXPROCS)
		undo = append(undo, func() { runtime.GOMAXPROCS(old) })
	}
	if c.GOGC != nil {
		old := debug.SetGCPercent(*c.GOGC)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if len(c.Pin) > 0 {
		back, err := affinity.Pin(c.Pin)
		if err != nil {
			restore()
			return func() {}, err
		}
		undo = append(undo, func() { back() })
	}
	return restore, nil
}

func (c Controls) check() error {
	if c.GOMAXPROCS < 0 {
		return fmt.Errorf("rundoc: invalid GOMAXPROCS %d (must not be negative)", c.GOMAXPROCS)
	}
	if c.GOGC != nil && *c.GOGC < -1 {
		return fmt.Errorf("rundoc: invalid GC percentage %d (want ≥ 0, or -1 for off)", *c.GOGC)
	}
	for _, n := range c.Pin {
		if n < 0 {
			return fmt.Errorf("rundoc: invalid processor %d in %v (must not be negative)", n, c.Pin)
		}
	}
	return nil
}

// gogcText is a GC percentage as the GOGC variable writes it: the
// percentage, or off for -1.
func gogcText(pct int) string {
	if pct < 0 {
		return "off"
	}
	return strconv.Itoa(pct)
}
