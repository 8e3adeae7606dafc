package main

import (
	"flag"
	"io"
	"testing"
)

func TestPercentFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"3%", 0.03, true}, {"0.03", 0.03, true}, {"2.5%", 0.025, true}, {"0", 0, true},
		{"-1%", 0, false}, {"100%", 0, false}, {"abc", 0, false}, {"3%%", 0, false},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		p := percentFlag(fs, "target", 0.5, "")
		err := fs.Parse([]string{"-target", tc.in})
		if (err == nil) != tc.ok {
			t.Errorf("%q: error %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && (*p < tc.want-1e-12 || *p > tc.want+1e-12) {
			t.Errorf("%q = %v, want %v", tc.in, *p, tc.want)
		}
	}
}
