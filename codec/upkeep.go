package codec

import "time"

// UpkeepChecked is the date on which every adapter's Info.LastRelease was
// last checked against the Go module proxy.
const UpkeepChecked = "2026-11-24"

// MaintainedWindow is how recent a library's last release must be, before
// UpkeepChecked, for Maintained to call it maintained: two years.
const MaintainedWindow = 2 * 365 * 24 * time.Hour

// Maintained applies serbench's rule for a maintained library to info:
// the standard library and serbench's own codecs are maintained; any
// other library is when upstream has not archived or deprecated it
// (Info.Archived) and its last release (Info.LastRelease) is at most
// MaintainedWindow older than UpkeepChecked. A library without a
// LastRelease, or with one that does not parse, is not. The rule looks
// at releases only: a library with recent commits but no recent release
// counts as unmaintained, as it does for a user pinning versions.
func Maintained(info Info) bool {
	if info.Module == "std" || info.Module == "github.com/serbench/serbench" {
		return true
	}
	if info.Archived {
		return false
	}
	last, err := time.Parse(time.DateOnly, info.LastRelease)
	if err != nil {
		return false
	}
	checked, _ := time.Parse(time.DateOnly, UpkeepChecked)
	return checked.Sub(last) <= MaintainedWindow
}
