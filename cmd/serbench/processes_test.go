package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// TestRunProcesses runs a small matrix as two processes of this test
// binary (TestMain serves their role) and checks the merged run: every
// timed cell holds both processes' samples and figures.
func TestRunProcesses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.json")
	_, stderr, err := serbench(t, "run", "-processes", "2", "-codecs", "encoding/json,wire", "-scenarios", "ws-message",
		"-benchtime", "1ms", "-count", "6", "-format", "json", "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "process 1 of 2") || !strings.Contains(stderr, "process 2 of 2") {
		t.Errorf("stderr does not say which process runs:\n%s", stderr)
	}
	doc, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	timed := 0
	for _, r := range doc.Results {
		if !r.Timed() {
			continue
		}
		timed++
		// encoding/json, the baseline, takes a sample on each side of
		// wire's (paired sampling): more than -count.
		if len(r.Processes) != 2 || r.Processes[0].Samples < 6 || len(r.Samples) != r.Processes[0].Samples+r.Processes[1].Samples {
			t.Errorf("%s %s: %d samples, processes %+v; want both processes' samples", r.Codec, r.Op, len(r.Samples), r.Processes)
		}
		if r.Codec == "wire" && (r.Speedup == 0 || r.Processes[1].Speedup == 0) {
			t.Errorf("wire %s: speed-up %v, per process %+v", r.Op, r.Speedup, r.Processes)
		}
	}
	if timed == 0 {
		t.Fatal("no cell timed")
	}
	if !strings.Contains(strings.Join(doc.Env.Settings, " "), "processes=2") {
		t.Errorf("settings %v do not record -processes", doc.Env.Settings)
	}
}

func TestRunProcessesErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-processes", "0"}, "invalid -processes 0 (range is [1, 16])"},
		{[]string{"-processes", "17"}, "invalid -processes 17"},
		{[]string{"-processes", "2", "-go", "go1.27.4"}, "-processes does not combine with -go"},
		{[]string{"-processes", "2", "-cpuprofile", t.TempDir()}, "-processes does not combine with -cpuprofile"},
	} {
		_, _, err := serbench(t, append([]string{"run"}, tc.args...)...)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v (exit %d), want exit 2 with %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}
