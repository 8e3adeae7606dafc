package codec_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
)

func TestMaintained(t *testing.T) {
	for _, tc := range []struct {
		name string
		info codec.Info
		want bool
	}{
		{"standard library", codec.Info{Module: "std"}, true},
		{"serbench's own", codec.Info{Module: "github.com/serbench/serbench"}, true},
		{"released on the check date", codec.Info{Module: "m", LastRelease: codec.UpkeepChecked}, true},
		{"released within two years", codec.Info{Module: "m", LastRelease: "2025-01-01"}, true},
		{"released three years before", codec.Info{Module: "m", LastRelease: "2023-11-01"}, false},
		{"recent but archived", codec.Info{Module: "m", LastRelease: "2026-01-01", Archived: true}, false},
		{"no release date", codec.Info{Module: "m"}, false},
		{"not a date", codec.Info{Module: "m", LastRelease: "2026-13"}, false},
	} {
		if got := codec.Maintained(tc.info); got != tc.want {
			t.Errorf("%s: Maintained(%+v) = %v, want %v", tc.name, tc.info, got, tc.want)
		}
	}
}
