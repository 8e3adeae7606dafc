package toolchain

import (
	"fmt"
	"regexp"
	"strings"
)

// Spec is one build of serbench to measure with: a Go toolchain and the
// GOEXPERIMENT to build with.
type Spec struct {
	// Go is a toolchain name as GOTOOLCHAIN takes it ("go1.27.4"), or
	// "local" for the go command on PATH as it is.
	Go string
	// Experiment is the GOEXPERIMENT value ("nojsonv2"), "" for the
	// toolchain's defaults.
	Experiment string
}

// String is the Spec as Parse reads it: "go1.27.4", "go1.27.4+nojsonv2".
func (s Spec) String() string {
	if s.Experiment == "" {
		return s.Go
	}
	return s.Go + "+" + strings.ReplaceAll(s.Experiment, ",", "+")
}

var (
	goName         = regexp.MustCompile(`^go1(\.[0-9]+){1,2}((rc|beta)[0-9]+)?$`)
	experimentName = regexp.MustCompile(`^[a-z0-9]+$`)
)

// MaxSpecs caps how many builds one run compares: 8.
const MaxSpecs = 8

// Parse reads a comma-separated list of builds: each a toolchain name
// (go1.26.11, go1.27.4, go1.27rc1, or local) followed by any number of
// +EXPERIMENT (go1.27.4+nojsonv2). It returns an error naming the first
// entry that is not one, a build named twice, or more than MaxSpecs.
func Parse(list string) ([]Spec, error) {
	var specs []Spec
	seen := map[Spec]bool{}
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		parts := strings.Split(entry, "+")
		s := Spec{Go: parts[0]}
		if s.Go != "local" && !goName.MatchString(s.Go) {
			return nil, fmt.Errorf("toolchain: %q: not a Go toolchain name (want go1.N.P, go1.NrcN or local, then +EXPERIMENT...)", entry)
		}
		for _, e := range parts[1:] {
			if !experimentName.MatchString(e) {
				return nil, fmt.Errorf("toolchain: %q: %q is not a GOEXPERIMENT name", entry, e)
			}
		}
		s.Experiment = strings.Join(parts[1:], ",")
		if seen[s] {
			return nil, fmt.Errorf("toolchain: %q named twice", entry)
		}
		seen[s] = true
		specs = append(specs, s)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("toolchain: no toolchain in %q", list)
	}
	if len(specs) > MaxSpecs {
		return nil, fmt.Errorf("toolchain: %d builds (range is [1, %d])", len(specs), MaxSpecs)
	}
	return specs, nil
}
