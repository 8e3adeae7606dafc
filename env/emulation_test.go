package env

import (
	"strings"
	"testing"
)

func TestEmulation(t *testing.T) {
	const x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t\t: fpu vme sse sse2 avx2\n"
	const arm = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x41\n"
	for _, tc := range []struct {
		cpuinfo, goarch string
		emulated        bool
	}{
		{x86, "amd64", false},
		{x86, "arm64", true},
		{arm, "arm64", false},
		{arm, "amd64", true},
		{"", "arm64", false},
	} {
		got := emulation(strings.NewReader(tc.cpuinfo), tc.goarch)
		if (got != "") != tc.emulated {
			t.Errorf("%.20q on %s: %q, want emulated %v", tc.cpuinfo, tc.goarch, got, tc.emulated)
		}
	}
}
