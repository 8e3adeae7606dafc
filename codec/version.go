package codec

import (
	"runtime"
	"runtime/debug"
	"sync"
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
