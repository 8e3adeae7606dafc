package env

import "runtime/debug"

// The encoding/json implementations a binary can run, as Env.JSONEngine
// records them.
const (
	// JSONEngineV2 is encoding/json implemented on top of encoding/json/v2:
	// the default from Go 1.27 (GOEXPERIMENT=jsonv2 on Go 1.25 and 1.26).
	JSONEngineV2 = "v2"
	// JSONEngineLegacy is the original encoding/json implementation: the
	// default up to Go 1.26, and Go 1.27 with GOEXPERIMENT=nojsonv2.
	JSONEngineLegacy = "legacy"
)

// JSONEngine is the encoding/json implementation this binary was built
// with, JSONEngineV2 or JSONEngineLegacy. It is set at compile time from the
// goexperiment.jsonv2 build tag, the switch the standard library itself uses
// to choose between the two (its encoding/json sources carry
// //go:build goexperiment.jsonv2 and its negation).
const JSONEngine = jsonEngine

// goExperiment returns the GOEXPERIMENT setting the binary was built with as
// the go command records it in the build information (the experiments that
// differ from the toolchain's defaults, "nojsonv2" say), "" for none.
func goExperiment() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == "GOEXPERIMENT" {
			return s.Value
		}
	}
	return ""
}
