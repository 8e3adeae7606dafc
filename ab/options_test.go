package ab

import (
	"strings"
	"testing"
	"time"
)

func TestParseBenchtime(t *testing.T) {
	for _, tc := range []struct {
		in    string
		d     time.Duration
		iters int
		err   string
	}{
		{"100ms", 100 * time.Millisecond, 0, ""},
		{"1000x", 0, 1000, ""},
		{"0x", 0, 0, `invalid benchtime "0x" (want a positive count`},
		{"-1s", 0, 0, `invalid benchtime "-1s" (want a positive duration`},
		{"fast", 0, 0, `invalid benchtime "fast"`},
	} {
		d, iters, err := ParseBenchtime(tc.in)
		if d != tc.d || iters != tc.iters || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseBenchtime(%q) = %v, %d, %v; want %v, %d, %q", tc.in, d, iters, err, tc.d, tc.iters, tc.err)
		}
	}
}
