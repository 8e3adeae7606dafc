package env

import (
	"go/version"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestJSONEngine checks the build-tag constant against what the toolchain
// version and the recorded GOEXPERIMENT imply: encoding/json runs on the v2
// engine from Go 1.27 unless nojsonv2 is set, and before only with jsonv2.
func TestJSONEngine(t *testing.T) {
	exp := goExperiment()
	flags := strings.Split(exp, ",")
	want := JSONEngineLegacy
	switch {
	case slices.Contains(flags, "nojsonv2"):
	case slices.Contains(flags, "jsonv2"):
		want = JSONEngineV2
	case strings.HasPrefix(runtime.Version(), "go") && version.Compare(runtime.Version(), "go1.27") >= 0:
		want = JSONEngineV2
	}
	if JSONEngine != want {
		t.Errorf("JSONEngine = %q on %s with GOEXPERIMENT=%q, want %q", JSONEngine, runtime.Version(), exp, want)
	}
	env := Collect(time.Time{}, nil)
	if env.JSONEngine != JSONEngine || env.GOEXPERIMENT != exp {
		t.Errorf("Collect: json_engine %q, goexperiment %q; want %q, %q", env.JSONEngine, env.GOEXPERIMENT, JSONEngine, exp)
	}
}
