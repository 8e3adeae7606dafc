package env

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// ResetPeakRSS starts a new peak resident set size measurement for the
// process: Linux resets its high-water mark (VmHWM) when "5" is written to
// /proc/self/clear_refs (proc(5), since Linux 4.0). It reports whether the
// reset took effect.
func ResetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// PeakRSS returns the process's peak resident set size in bytes: VmHWM
// from /proc/self/status, the peak since the last ResetPeakRSS, or where
// that cannot be read the peak since the process started (Usage.MaxRSS);
// 0 where neither can be read.
func PeakRSS() int64 {
	if p := vmHWM(); p > 0 {
		return p
	}
	u, _ := ProcessUsage() // zero on error: 0 as documented
	return u.MaxRSS
}

// vmHWM returns VmHWM from /proc/self/status in bytes, or 0 where it
// cannot be read.
func vmHWM() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest) // "123456 kB"
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
