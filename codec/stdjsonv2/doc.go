// Package stdjsonv2 adapts the standard library's encoding/json/v2 as
// released in Go 1.27. It exists only in a binary built by Go 1.27 or later
// with the goexperiment.jsonv2 build tag, which is on by default there:
// GOEXPERIMENT=nojsonv2 leaves it out, since the standard library builds
// encoding/json/v2 and encoding/json/jsontext only under that tag. (Go 1.25
// and 1.26 had the package as an experiment behind GOEXPERIMENT=jsonv2;
// serbench does not use that earlier API.)
//
// Codecs returns the codec where it builds and nothing elsewhere (codec/all
// and codec/defaults hold it); Absent says why it is missing, for a user
// who names it.
//
// It is the same API as github.com/go-json-experiment/json (codec/jsonv2,
// ID json-v2), from which the standard library's copy was taken, but the
// two are different code at different versions: this one moves with the Go
// release, json-v2 with its module version in go.mod.
package stdjsonv2

import "runtime"

// ID is the codec's stable ID.
const ID = "encoding/json/v2"

// Available reports whether this binary holds encoding/json/v2.
const Available = available

// Absent returns one line saying why encoding/json/v2 is not in this build,
// "" when it is.
func Absent() string {
	if Available {
		return ""
	}
	return "encoding/json/v2 is not in this build: serbench has it when built by Go 1.27 or later without GOEXPERIMENT=nojsonv2, and this one was built by " + runtime.Version()
}
