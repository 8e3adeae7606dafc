package codec

import (
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/serbench/serbench/env"
)

var (
	buildOnce sync.Once
	buildDeps map[string]string
)

// ModuleVersion returns the version of module path linked into this binary,
// as recorded in its build info (a replaced module reports its replacement's
// version; this binary's own main module reports its build-stamped version,
// "(devel)" or a VCS pseudo-version). It returns the Go version for "std"
// and "" when unknown (in test binaries, for instance).
func ModuleVersion(path string) string {
	if path == "std" {
		return runtime.Version()
	}
	buildOnce.Do(func() {
		buildDeps = map[string]string{}
		bi, ok := debug.ReadBuildInfo()
		if !ok {
			return
		}
		if bi.Main.Path != "" {
			buildDeps[bi.Main.Path] = bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			buildDeps[d.Path] = d.Version
		}
	})
	return buildDeps[path]
}

// Modules maps the library module of each codec of cs to its Info.Version,
// leaving out the standard library: the Modules a document's environment
// records.
func Modules(cs []Codec) map[string]string {
	m := map[string]string{}
	for _, c := range cs {
		if i := c.Info(); i.Module != "std" && i.Module != "" {
			m[i.Module] = i.Version
		}
	}
	return m
}

// A Library is one module that codecs come from, with the version linked
// into this binary (ModuleVersion; "" when unknown) and the IDs of its
// codecs, in order.
type Library struct {
	Module, Version string
	Codecs          []string
}

// Libraries returns the library modules of cs sorted by path, leaving out
// the standard library and the modules in skip (serbench's own).
func Libraries(cs []Codec, skip ...string) []Library {
	byModule := map[string]*Library{}
	var libs []*Library
	for _, c := range cs {
		i := c.Info()
		if i.Module == "std" || slices.Contains(skip, i.Module) {
			continue
		}
		l := byModule[i.Module]
		if l == nil {
			l = &Library{Module: i.Module, Version: ModuleVersion(i.Module)}
			byModule[i.Module] = l
			libs = append(libs, l)
		}
		l.Codecs = append(l.Codecs, i.ID)
	}
	slices.SortFunc(libs, func(a, b *Library) int { return strings.Compare(a.Module, b.Module) })
	out := make([]Library, len(libs))
	for i, l := range libs {
		out[i] = *l
	}
	return out
}

// Env is the environment a document records for a run of the codecs cs:
// this machine and process (env.Collect at started) with the modules cs
// link (Modules). The document producers (load, plan, hostile,
// conformance, evolve) default their options' Env to it.
func Env(started time.Time, cs []Codec) env.Env { return env.Collect(started, Modules(cs)) }
