package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunMeasuresOnlyTheUnmarshalCell(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-codec", "encoding/json", "-count", "1", "-benchtime", "1ms"}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "encoding/json sse-event unmarshal: 1 samples of ") {
		t.Errorf("output %q: want one line for encoding/json's sse-event unmarshal cell", out.String())
	}
	// The cell decodes the codec's own encoding: 888 B/op is
	// encoding/json's allocation for sse-event, not zero.
	if strings.Contains(lines[0], " 0 B/op") {
		t.Errorf("output %q: the unmarshal cell allocated nothing", lines[0])
	}
}

func TestRunRefusesWhatItCannotIsolate(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-codec", "no-such-codec"}, `no codec "no-such-codec"`},
		{[]string{"-codec", "wire"}, "not a codec.Funcs adapter"},
		{[]string{"-scenario", "no-such-scenario"}, "no-such-scenario"},
	} {
		err := run(tc.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
