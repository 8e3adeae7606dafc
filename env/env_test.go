package env

import (
	"testing"
	"time"
)

// TestEnvSummary checks the one line every writer states an environment
// in: what is known, in order, and nothing for what is not.
func TestEnvSummary(t *testing.T) {
	started := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		env  Env
		want string
	}{
		{"full", Env{Go: "go1.27.4", GOOS: "linux", GOARCH: "amd64", JSONEngine: JSONEngineV2, GOEXPERIMENT: "nojsonv2",
			CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2, Started: started},
			"go1.27.4 linux/amd64, encoding/json v2 engine, GOEXPERIMENT=nojsonv2, Test CPU, 2 CPUs, GOMAXPROCS=2, started 2026-11-22T08:00:00Z"},
		{"go test output", Env{GOOS: "linux", GOARCH: "arm64", CPU: "Neoverse", GOMAXPROCS: 1},
			"linux/arm64, Neoverse, GOMAXPROCS=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.env.Summary(); got != tt.want {
				t.Errorf("Summary() = %q, want %q", got, tt.want)
			}
		})
	}
	e := Env{Modules: map[string]string{"b.example/x": "v1.0.0", "a.example/y": "v0.1.0"}}
	if got := e.ModuleList(); len(got) != 2 || got[0] != "a.example/y@v0.1.0" || got[1] != "b.example/x@v1.0.0" {
		t.Errorf("ModuleList() = %q", got)
	}
}
