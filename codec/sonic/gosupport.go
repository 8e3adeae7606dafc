package sonic

import (
	"fmt"
	"go/version"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// GoSupport is the first release of sonic whose just-in-time engine builds
// for one minor release of Go. An older sonic builds its compat.go
// instead, which calls encoding/json: it works, but silently measures
// encoding/json under sonic's name.
type GoSupport struct {
	Go    string // the Go minor release, "go1.27"
	Sonic string // the first sonic release that supports it, "v1.15.3"
}

// GoSupports is the table CheckGo reads, oldest Go first. Source: the build
// constraint of sonic.go (its JIT; compat.go holds the negation) at each
// release tag of github.com/bytedance/sonic, e.g. v1.15.3's
// "(amd64 && go1.17 && !go1.28) || (arm64 && go1.20 && !go1.28)" against
// v1.15.2's "... !go1.27"; the README's "Requirement" line says the same
// range, though it lagged one Go release behind the constraint in v1.14.0
// ("Go: 1.17~1.24" with !go1.26) and v1.15.0 ("1.18~1.25" with !go1.27).
// The README also excludes Go 1.24.0 itself (golang/go issue 71672, fixed
// in 1.24.1), which CheckGo reports too.
var GoSupports = []GoSupport{
	{"go1.21", "v1.10.0"},
	{"go1.22", "v1.11.0"},
	{"go1.23", "v1.12.0"},
	{"go1.24", "v1.13.0"},
	{"go1.25", "v1.14.0"},
	{"go1.26", "v1.15.0"},
	{"go1.27", "v1.15.3"},
}

// GoSupportError says that the linked sonic does not run its JIT under the
// running Go: it falls back to encoding/json without a word.
type GoSupportError struct {
	Sonic string // the linked sonic version, "v1.14.1"
	Go    string // the running Go, runtime.Version(): "go1.27.4"
	// Need is the first sonic release that supports Go; "" when Go is
	// newer than every entry of GoSupports or is Go 1.24.0.
	Need string
}

func (e *GoSupportError) Error() string {
	switch {
	case e.Go == "go1.24.0":
		return fmt.Sprintf("sonic %s: Go 1.24.0 is not supported (golang/go issue 71672; sonic's README): use Go 1.24.1 or later", e.Sonic)
	case e.Need == "":
		last := GoSupports[len(GoSupports)-1]
		return fmt.Sprintf("sonic %s under %s: serbench knows sonic's support up to %s (sonic %s); a sonic that does not support %s falls back to encoding/json silently: check sonic's README and upgrade it", e.Sonic, e.Go, last.Go, last.Sonic, version.Lang(e.Go))
	}
	return fmt.Sprintf("sonic %s does not support %s (%s or later does): it falls back to encoding/json silently, so its rows measure encoding/json; upgrade github.com/bytedance/sonic", e.Sonic, e.Go, e.Need)
}

// CheckGo returns a *GoSupportError when sonic at sonicVersion (a module
// version, "v1.15.5") does not run its JIT under goVersion (a
// runtime.Version() string, "go1.27.4"), and nil when it does or when
// either version cannot be read (a development toolchain, "devel ...", or a
// build without module information: there is nothing to compare) or Go is
// older than GoSupports' first entry.
func CheckGo(sonicVersion, goVersion string) error {
	lang := version.Lang(goVersion)
	if !semver.IsValid(sonicVersion) || lang == "" {
		return nil
	}
	if goVersion == "go1.24.0" {
		return &GoSupportError{Sonic: sonicVersion, Go: goVersion}
	}
	minor := goMinor(lang)
	for _, s := range GoSupports {
		if goMinor(s.Go) != minor {
			continue
		}
		if semver.Compare(sonicVersion, s.Sonic) < 0 {
			return &GoSupportError{Sonic: sonicVersion, Go: goVersion, Need: s.Sonic}
		}
		return nil
	}
	if minor > goMinor(GoSupports[len(GoSupports)-1].Go) {
		return &GoSupportError{Sonic: sonicVersion, Go: goVersion}
	}
	return nil
}

// goMinor returns the minor number of a Go language version ("go1.27" is
// 27); -1 when it has none.
func goMinor(lang string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(lang, "go1."))
	if err != nil {
		return -1
	}
	return n
}
