package env

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ResidentBytes returns the resident set size of process pid now, in
// bytes: the second field of /proc/PID/statm (resident pages, proc(5))
// times the page size. Its errors start with "env: ": /proc/PID/statm is
// missing outside Linux and once the process is gone.
func ResidentBytes(pid int) (int64, error) {
	path := "/proc/" + strconv.Itoa(pid) + "/statm"
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("env: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("env: %s: %d fields, want at least 2", path, len(f))
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("env: %s: resident pages: %w", path, err)
	}
	return pages * int64(os.Getpagesize()), nil
}

// clockTicks is the unit of /proc/PID/stat's CPU times: USER_HZ, 100 on
// every Linux architecture Go supports (sysconf(_SC_CLK_TCK)).
const clockTicks = 100

// ProcessCPU returns the CPU time process pid has used so far, user and
// system together: fields 14 and 15 (utime, stime) of /proc/PID/stat
// (proc(5)), in clock ticks of 10 ms. Its errors start with "env: ":
// /proc/PID/stat is missing outside Linux and once the process is gone.
func ProcessCPU(pid int) (time.Duration, error) {
	path := "/proc/" + strconv.Itoa(pid) + "/stat"
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("env: %w", err)
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after it start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	if i < 0 || len(f) < 13 {
		return 0, fmt.Errorf("env: %s: %q is not a stat line", path, s[:min(len(s), 64)])
	}
	var ticks int64
	for _, v := range f[11:13] { // fields 14 and 15: the third is field 3
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("env: %s: cpu time: %w", path, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / clockTicks), nil
}
