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
// version). It returns the Go version for "std" and "" when unknown.
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
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			buildDeps[d.Path] = d.Version
		}
	})
	return buildDeps[path]
}
