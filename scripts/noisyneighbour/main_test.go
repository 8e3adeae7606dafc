package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunAlternatesAndStops(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, []string{"-period", "20ms", "-duration", "200ms"}); err != nil {
		t.Fatal(err)
	}
	// How many phases fit in the duration depends on the machine's load,
	// so the test checks their order, not their number: idle first, then
	// busy and idle in turn, and the stop last.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 2 {
		t.Fatalf("output %q: want at least an idle line and a stop line", out.String())
	}
	phases, last := lines[:len(lines)-1], lines[len(lines)-1]
	for i, line := range phases {
		want := []string{" idle on ", " busy on "}[i%2]
		if !strings.Contains(line, want) {
			t.Errorf("line %d %q lacks %q", i, line, want)
		}
	}
	if !strings.Contains(last, " stopped (context deadline exceeded)") {
		t.Errorf("last line %q: want the stop", last)
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-period", "0s"}, "invalid -period 0s"},
		{[]string{"-duration", "48h"}, "invalid -duration 48h0m0s"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			err := run(context.Background(), &bytes.Buffer{}, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
			}
		})
	}
}
