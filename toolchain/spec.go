package toolchain

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Spec is one build of serbench to measure with: a Go toolchain, the
// GOEXPERIMENT to build with and a version of one module that serbench
// links, in place of the one its go.mod requires.
type Spec struct {
	// Go is a toolchain name as GOTOOLCHAIN takes it ("go1.27.4"), or
	// "local" for the go command on PATH as it is. "" is the go command as
	// it is too, unnamed: a Spec that only sets Module (-mod without -go).
	Go string
	// Experiment is the GOEXPERIMENT value ("nojsonv2"), "" for the
	// toolchain's defaults.
	Experiment string
	// Module, when its Path is set, is the module version to build with.
	Module Module
}

// Module is one version of a module: Path@Version.
type Module struct {
	Path    string // "github.com/bytedance/sonic"
	Version string // a semantic version: "v1.15.4"
}

// String is "github.com/bytedance/sonic@v1.15.4".
func (m Module) String() string { return m.Path + "@" + m.Version }

// Short names m by the last element of its path, with its major version
// suffix: "sonic@v1.15.4", "json/v2@v2.0.1", "yaml.v3@v3.0.1".
func (m Module) Short() string {
	prefix, major, ok := module.SplitPathVersion(m.Path)
	if !ok {
		prefix, major = m.Path, ""
	}
	return path.Base(prefix) + major + "@" + m.Version
}

// String names the build: its toolchain as Parse reads it ("go1.27.4",
// "go1.27.4+nojsonv2"), then its module version by Module.Short after a
// space ("go1.27.4 sonic@v1.15.4"), or the module version alone
// ("sonic@v1.15.4") when Go is "".
func (s Spec) String() string {
	var parts []string
	if s.Go != "" {
		name := s.Go
		if s.Experiment != "" {
			name += "+" + strings.ReplaceAll(s.Experiment, ",", "+")
		}
		parts = append(parts, name)
	}
	if s.Module.Path != "" {
		parts = append(parts, s.Module.Short())
	}
	return strings.Join(parts, " ")
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

// ParseModule reads -mod: a module path, @, and a comma-separated list of
// its versions, each a semantic version ("github.com/bytedance/sonic@v1.15.4,v1.15.5";
// pseudo-versions are accepted, queries such as latest are not). It
// returns one Module per version, in order, or an error naming what is
// wrong: no @, a path that is not a module path, a version that is not
// one, a version named twice, more than MaxSpecs. Whether the versions
// exist is for the build to find out (GoBuilder).
func ParseModule(s string) ([]Module, error) {
	p, list, ok := strings.Cut(strings.TrimSpace(s), "@")
	if !ok || p == "" {
		return nil, fmt.Errorf("toolchain: %q: want MODULE@VERSION,VERSION... such as github.com/bytedance/sonic@v1.15.4,v1.15.5", s)
	}
	if err := module.CheckPath(p); err != nil {
		return nil, fmt.Errorf("toolchain: %q is not a module path: %v", p, err)
	}
	var mods []Module
	seen := map[string]bool{}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if c := semver.Canonical(v); c == "" || v != c && v != c+"+incompatible" {
			return nil, fmt.Errorf("toolchain: %s@%s: %q is not a version (want a semantic version such as v1.15.4)", p, v, v)
		}
		if seen[v] {
			return nil, fmt.Errorf("toolchain: %s@%s named twice", p, v)
		}
		seen[v] = true
		mods = append(mods, Module{Path: p, Version: v})
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("toolchain: no version of %s in %q", p, s)
	}
	if len(mods) > MaxSpecs {
		return nil, fmt.Errorf("toolchain: %d versions of %s (range is [1, %d])", len(mods), p, MaxSpecs)
	}
	return mods, nil
}

// Cross returns every build of builds with every module version of mods:
// for each build, each version in turn. No builds means the go command
// as it is (Spec.Go ""); no mods means builds as they are. More than
// MaxSpecs in all is an error that counts them.
func Cross(builds []Spec, mods []Module) ([]Spec, error) {
	if len(mods) == 0 {
		return builds, nil
	}
	if len(builds) == 0 {
		builds = []Spec{{}}
	}
	if n := len(builds) * len(mods); n > MaxSpecs {
		return nil, fmt.Errorf("toolchain: %d toolchains × %d versions = %d builds (range is [1, %d])", len(builds), len(mods), n, MaxSpecs)
	}
	var out []Spec
	for _, b := range builds {
		for _, m := range mods {
			b.Module = m
			out = append(out, b)
		}
	}
	return out, nil
}
