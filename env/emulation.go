package env

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"strings"
)

// Emulation returns why this process appears to run under a user-mode
// emulator such as qemu-user (Debian's qemu-aarch64), or "" when it does
// not. qemu-user passes the host's /proc/cpuinfo through, so a cpuinfo that
// describes another architecture family than GOARCH gives it away: x86
// fields (vendor_id, an "sse2" flag) under arm64, or Arm fields (CPU
// implementer) under amd64. Timings taken under emulation measure the
// emulator, not the CPU.
func Emulation() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	return emulation(f, runtime.GOARCH)
}

// emulation reads a /proc/cpuinfo for Emulation.
func emulation(cpuinfo io.Reader, goarch string) string {
	x86, arm := false, false
	sc := bufio.NewScanner(cpuinfo)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch k = strings.TrimSpace(k); {
		case k == "vendor_id", k == "flags" && strings.Contains(v, " sse2"):
			x86 = true
		case k == "CPU implementer", k == "Features" && strings.Contains(v, "asimd"):
			arm = true
		}
	}
	switch {
	case x86 && !arm && goarch != "amd64" && goarch != "386":
		return "GOARCH " + goarch + " on a host whose /proc/cpuinfo describes an x86 CPU (user-mode emulation, such as qemu-user)"
	case arm && !x86 && goarch != "arm64" && goarch != "arm":
		return "GOARCH " + goarch + " on a host whose /proc/cpuinfo describes an Arm CPU (user-mode emulation)"
	}
	return ""
}
