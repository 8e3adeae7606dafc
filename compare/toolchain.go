package compare

import (
	"fmt"

	"github.com/serbench/serbench/env"
)

// toolchainText names e's toolchain and engine in a few words: "go1.27.4
// (encoding/json v2 engine)", or the Go version alone when the engine is
// not recorded.
func toolchainText(e env.Env) string {
	if t := e.Engine(); t != "" {
		return fmt.Sprintf("%s (%s)", e.Go, t)
	}
	return e.Go
}

// ToolchainNote returns one line saying that two runs were built by
// different toolchains or ran different encoding/json engines, and so that
// their speed-ups are over different baselines; "" when they agree (or the
// files do not say).
func ToolchainNote(oldEnv, newEnv env.Env) string {
	if oldEnv.Go == newEnv.Go && oldEnv.JSONEngine == newEnv.JSONEngine && oldEnv.GOEXPERIMENT == newEnv.GOEXPERIMENT {
		return ""
	}
	if oldEnv.Go == "" || newEnv.Go == "" {
		return ""
	}
	what := "toolchains differ"
	if oldEnv.JSONEngine != newEnv.JSONEngine && oldEnv.JSONEngine != "" && newEnv.JSONEngine != "" {
		what = "encoding/json engines differ"
	}
	return fmt.Sprintf("%s: old %s, new %s; figures include the toolchain's change, and speed-ups are over each run's own encoding/json",
		what, toolchainText(oldEnv), toolchainText(newEnv))
}
