package main

import (
	"strings"
	"testing"
)

// TestBadFlagValuesExit2 checks that a flag value that parses but is out
// of range is a usage error, exit status 2, as docs/reference.md says of
// every bad flag, and that the message names the flag.
func TestBadFlagValuesExit2(t *testing.T) {
	for _, args := range [][]string{
		{"run", "-count", "0"},
		{"run", "-count", "10", "-target", "3%"},
		{"run", "-benchtime", "-1s"},
		{"run", "-live-heap", "lots"},
		{"run", "-gomaxprocs", "-1", "-codecs", "wire", "-scenarios", "ws-message"},
		{"run", "-gogc", "-5", "-codecs", "wire", "-scenarios", "ws-message"},
		{"run", "-pin", "x", "-codecs", "wire", "-scenarios", "ws-message"},
		{"run", "-sizes", "huge"},
		{"run", "-compress", ","},
		{"run", "-processes", "0"},
		{"run", "-archive", "exitcode_test.go"}, // a file, not a folder
		{"export", "-live-heap", "lots", "-o", "x"},
		{"fidelity", "-timeout", "0s"},
		{"hostile", "-flips", "-1"},
		{"hostile", "-depth", "0"},
		{"hostile", "-time-limit", "0s"},
		{"hostile", "-max-kills", "0"},
	} {
		_, _, err := serbench(t, args...)
		flagName := args[1]
		if exitCode(err) != 2 || !strings.Contains(err.Error(), flagName) {
			t.Errorf("serbench %s: err %v (exit %d), want exit 2 naming %s", strings.Join(args, " "), err, exitCode(err), flagName)
		}
	}
}
