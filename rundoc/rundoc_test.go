package rundoc

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
)

// A codec's Info.Warning becomes a run warning, once per text.
func TestCodecWarnings(t *testing.T) {
	c := func(id, warning string) codec.Codec {
		return codec.Funcs{Meta: codec.Info{ID: id, Warning: warning}}
	}
	got := CodecWarnings([]codec.Codec{c("a", ""), c("s", "too old"), c("s/v", "too old"), c("t", "other")})
	if want := []string{"s: too old", "t: other"}; !slices.Equal(got, want) {
		t.Errorf("CodecWarnings = %q, want %q", got, want)
	}
}
