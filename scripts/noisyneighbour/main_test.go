package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunAlternatesAndStops(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, []string{"-period", "20ms", "-duration", "70ms"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("output %q: want an idle line, a busy line and a stop line", out.String())
	}
	for i, want := range []string{" idle on ", " busy on "} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d %q lacks %q", i, lines[i], want)
		}
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, " stopped (context deadline exceeded)") {
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
