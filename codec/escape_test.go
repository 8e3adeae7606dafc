package codec_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
)

func TestEscapeID(t *testing.T) {
	tests := []struct{ id, want string }{
		{"encoding/json", "encoding.json"},
		{"flatbuffers/lazy", "flatbuffers.lazy"},
		{"json-v2", "json-v2"},
		{"corpus/citm_catalog", "corpus.citm_catalog"},
		{"a.b%c d\te", "a%2Eb%25c%20d%09e"},
		{"é/ü", "é.ü"},
	}
	for _, tt := range tests {
		if got := codec.EscapeID(tt.id); got != tt.want {
			t.Errorf("EscapeID(%q) = %q, want %q", tt.id, got, tt.want)
		}
		if back, err := codec.UnescapeID(tt.want); err != nil || back != tt.id {
			t.Errorf("UnescapeID(%q) = %q, %v; want %q", tt.want, back, err, tt.id)
		}
	}
	for _, bad := range []string{"%", "%4", "%zz"} {
		if _, err := codec.UnescapeID(bad); err == nil || !strings.HasPrefix(err.Error(), "codec: bad escape") {
			t.Errorf("UnescapeID(%q) = %v, want a bad-escape error", bad, err)
		}
	}
}

// TestEscapeIDOfEveryCodec checks what ws.Subprotocol relies on to keep
// its names: for every ID of codec/all, EscapeID only writes '/' as '.'.
func TestEscapeIDOfEveryCodec(t *testing.T) {
	for _, c := range all.Registry().All() {
		id := c.Info().ID
		if got, want := codec.EscapeID(id), strings.ReplaceAll(id, "/", "."); got != want {
			t.Errorf("EscapeID(%q) = %q, want %q", id, got, want)
		}
	}
}

func FuzzEscapeID(f *testing.F) {
	f.Add("encoding/json")
	f.Add("a.b%c d")
	f.Fuzz(func(t *testing.T, id string) {
		esc := codec.EscapeID(id)
		if strings.ContainsAny(esc, "/ \t\n") {
			t.Fatalf("EscapeID(%q) = %q keeps a separator", id, esc)
		}
		back, err := codec.UnescapeID(esc)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ToValidUTF8(id, "\uFFFD") == id && back != id {
			t.Fatalf("UnescapeID(EscapeID(%q)) = %q", id, back)
		}
	})
}
