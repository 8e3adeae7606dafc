package env

import (
	"fmt"
	"os"
	"strconv"
	"strings"
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
