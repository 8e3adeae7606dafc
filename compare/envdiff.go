package compare

import (
	"fmt"
	"strconv"

	"github.com/serbench/serbench/results"
)

// EnvDiff is a field in which two runs' environments differ so that their
// timings cannot be compared: another CPU or CPU count, OS or
// architecture, Go toolchain, encoding/json engine or GOEXPERIMENT, or
// another baseline codec (whose speed-ups are over something else).
type EnvDiff struct {
	// Field is the field's name in the run document: "env.cpu",
	// "env.num_cpu", "env.goos", "env.goarch", "env.go",
	// "env.json_engine", "env.goexperiment" or "baseline".
	Field string `json:"field"`
	// Old and New are its values; GOEXPERIMENT's empty value is "none".
	Old string `json:"old"`
	New string `json:"new"`
}

// String is "env.go (go1.26.11 vs go1.27.4)".
func (d EnvDiff) String() string {
	return fmt.Sprintf("%s (%s vs %s)", d.Field, d.Old, d.New)
}

// DiffEnv returns the first field, in the order of EnvDiff.Field, in which
// the runs oldDoc and newDoc differ, or nil when they agree. A field
// either run does not record (empty, or 0 CPUs; GOEXPERIMENT when either
// run does not record its Go version, as go test output may not) is
// skipped: it cannot tell the runs apart.
func DiffEnv(oldDoc, newDoc *results.Run) *EnvDiff {
	o, n := oldDoc.Env, newDoc.Env
	itoa := func(v int) string {
		if v <= 0 {
			return ""
		}
		return strconv.Itoa(v)
	}
	experiment := func(e string) string {
		if e == "" {
			return "none"
		}
		return e
	}
	fields := [][3]string{
		{"env.cpu", o.CPU, n.CPU},
		{"env.num_cpu", itoa(o.NumCPU), itoa(n.NumCPU)},
		{"env.goos", o.GOOS, n.GOOS},
		{"env.goarch", o.GOARCH, n.GOARCH},
		{"env.go", o.Go, n.Go},
		{"env.json_engine", o.JSONEngine, n.JSONEngine},
	}
	if o.Go != "" && n.Go != "" {
		fields = append(fields, [3]string{"env.goexperiment", experiment(o.GOEXPERIMENT), experiment(n.GOEXPERIMENT)})
	}
	fields = append(fields, [3]string{"baseline", oldDoc.Baseline, newDoc.Baseline})
	for _, f := range fields {
		if f[1] != "" && f[2] != "" && f[1] != f[2] {
			return &EnvDiff{Field: f[0], Old: f[1], New: f[2]}
		}
	}
	return nil
}
