package codec_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestRegisterRefusesOtherConstructors checks that Register takes only the
// constructor of a catalog entry, and says so.
func TestRegisterRefusesOtherConstructors(t *testing.T) {
	defer func() {
		r := recover()
		if msg, ok := r.(string); !ok || !strings.Contains(msg, "not the constructor of a shipped codec") {
			t.Errorf("Register(closure) panicked with %v", r)
		}
	}()
	codec.Register(func() codec.Codec { return nil })
}
