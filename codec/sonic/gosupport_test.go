package sonic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec/sonic"
)

func TestCheckGo(t *testing.T) {
	for _, tc := range []struct {
		sonic, goVersion string
		wantNeed         string // "" with wantErr: no known release
		wantErr          bool
	}{
		{"v1.15.5", "go1.27.4", "", false},
		{"v1.15.3", "go1.27.0", "", false},
		{"v1.15.2", "go1.27.4", "v1.15.3", true},
		{"v1.14.1", "go1.26.8", "v1.15.0", true},
		{"v1.15.0", "go1.26.8", "", false},
		{"v1.12.0", "go1.24.3", "v1.13.0", true},
		{"v1.15.5", "go1.24.0", "", true},
		{"v1.15.5", "go1.28.0", "", true},
		{"v1.15.5", "go1.28rc1", "", true},
		{"v1.9.0", "go1.20.1", "", false}, // older than the table
		{"", "go1.27.4", "", false},       // version unknown
		{"v1.15.5", "devel go1.28-abcdef", "", false},
	} {
		err := sonic.CheckGo(tc.sonic, tc.goVersion)
		if (err != nil) != tc.wantErr {
			t.Errorf("CheckGo(%q, %q) = %v, want error %v", tc.sonic, tc.goVersion, err, tc.wantErr)
			continue
		}
		if err == nil {
			continue
		}
		var ge *sonic.GoSupportError
		if !errors.As(err, &ge) || ge.Need != tc.wantNeed || ge.Sonic != tc.sonic || ge.Go != tc.goVersion {
			t.Errorf("CheckGo(%q, %q) = %#v, want Need %q", tc.sonic, tc.goVersion, err, tc.wantNeed)
		}
		if !strings.Contains(err.Error(), tc.sonic) || !strings.Contains(err.Error(), "encoding/json") && tc.goVersion != "go1.24.0" {
			t.Errorf("CheckGo(%q, %q): message %q does not name the version and the fallback", tc.sonic, tc.goVersion, err)
		}
	}
}

// The table is ordered by Go release, each sonic release at least the
// previous one's.
func TestGoSupportsOrdered(t *testing.T) {
	for i := 1; i < len(sonic.GoSupports); i++ {
		a, b := sonic.GoSupports[i-1], sonic.GoSupports[i]
		if sonic.CheckGo(a.Sonic, b.Go+".1") == nil {
			t.Errorf("%s's sonic %s passes for %s, which needs %s", a.Go, a.Sonic, b.Go, b.Sonic)
		}
	}
}
