package report

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/bench"
)

func TestToolchainNote(t *testing.T) {
	old := bench.Env{Go: "go1.26.11", JSONEngine: bench.JSONEngineLegacy}
	for _, tc := range []struct {
		name     string
		new      bench.Env
		want     string // substring; "" for no note
		wantNone bool
	}{
		{"same", old, "", true},
		{"engine", bench.Env{Go: "go1.27.4", JSONEngine: bench.JSONEngineV2},
			"encoding/json engines differ: old go1.26.11 (encoding/json legacy engine), new go1.27.4 (encoding/json v2 engine)", false},
		{"experiment", bench.Env{Go: "go1.27.4", JSONEngine: bench.JSONEngineLegacy, GOEXPERIMENT: "nojsonv2"},
			"toolchains differ: old go1.26.11 (encoding/json legacy engine), new go1.27.4 (encoding/json legacy engine, GOEXPERIMENT=nojsonv2)", false},
		{"unrecorded", bench.Env{Go: "go1.26.8"}, "toolchains differ: old go1.26.11 (encoding/json legacy engine), new go1.26.8;", false},
		{"unknown", bench.Env{}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ToolchainNote(old, tc.new)
			if tc.wantNone != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("ToolchainNote = %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "\n") {
				t.Errorf("ToolchainNote is more than one line: %q", got)
			}
		})
	}
}
