package compare

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/env"
)

func TestToolchainNote(t *testing.T) {
	old := env.Env{Go: "go1.26.11", JSONEngine: env.JSONEngineLegacy}
	for _, tc := range []struct {
		name     string
		new      env.Env
		want     string // substring; "" for no note
		wantNone bool
	}{
		{"same", old, "", true},
		{"engine", env.Env{Go: "go1.27.4", JSONEngine: env.JSONEngineV2},
			"encoding/json engines differ: old go1.26.11 (encoding/json legacy engine), new go1.27.4 (encoding/json v2 engine)", false},
		{"experiment", env.Env{Go: "go1.27.4", JSONEngine: env.JSONEngineLegacy, GOEXPERIMENT: "nojsonv2"},
			"toolchains differ: old go1.26.11 (encoding/json legacy engine), new go1.27.4 (encoding/json legacy engine, GOEXPERIMENT=nojsonv2)", false},
		{"unrecorded", env.Env{Go: "go1.26.8"}, "toolchains differ: old go1.26.11 (encoding/json legacy engine), new go1.26.8;", false},
		{"unknown", env.Env{}, "", true},
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
