package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/serbench/serbench/internal/affinity"
)

// applyControls sets GOMAXPROCS, the GC percentage and the CPU affinity for
// a run, each only when its flag was given, and returns a function that puts
// the previous settings back.
func applyControls(gomaxprocs int, gogc, pin string) (restore func(), err error) {
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if gomaxprocs < 0 {
		return restore, usagef("invalid -gomaxprocs %d (must be positive)", gomaxprocs)
	}
	if gomaxprocs > 0 {
		old := runtime.GOMAXPROCS(gomaxprocs)
		undo = append(undo, func() { runtime.GOMAXPROCS(old) })
	}
	if gogc != "" {
		pct := -1
		if gogc != "off" {
			if pct, err = strconv.Atoi(gogc); err != nil || pct < 0 {
				restore()
				return func() {}, usagef("invalid -gogc %q (want a percentage ≥ 0, or off)", gogc)
			}
		}
		old := debug.SetGCPercent(pct)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if pin != "" {
		var cpus []int
		for _, f := range strings.Split(pin, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				restore()
				return func() {}, usagef("invalid -pin %q (want processor numbers such as 0,1)", pin)
			}
			cpus = append(cpus, n)
		}
		back, err := affinity.Pin(cpus)
		if err != nil {
			restore()
			return func() {}, err
		}
		undo = append(undo, func() { back() })
	}
	return restore, nil
}

// profileDirs makes each profile folder given that does not exist yet
// (with its parents) and fails when a path exists but is not a folder.
func profileDirs(dirs ...string) error {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		fi, err := os.Stat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("profile folder: %w", err)
			}
		case err != nil:
			return fmt.Errorf("profile folder: %w", err)
		case !fi.IsDir():
			return fmt.Errorf("profile folder %s: not a directory", d)
		}
	}
	return nil
}
