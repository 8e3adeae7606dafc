package httpapi

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

// TestDecodeAmplification posts serbench hostile's amplification inputs
// (shared-offset FlatBuffers and Cap'n Proto lists) for every codec of
// DefaultDecodeCodecs that has them, on every seed scenario. Where the
// references nest (user-event: 4x10^8 entries once read without a bound)
// the answer is a 400 naming the codec's limit, within the request (never
// a 503 with the decode left running); a single level of sharing reads
// within the bound and is answered; and what the whole series allocates,
// answers included, stays within a fixed multiple of what was posted.
func TestDecodeAmplification(t *testing.T) {
	_, srv := newServer(t, Options{})
	reg := all.Registry()
	var posted uint64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for _, id := range DefaultDecodeCodecs {
		c, _ := reg.Lookup(id)
		for _, sc := range scenario.Seeds() {
			if _, err := c.Bind(sc.Value()); err != nil {
				continue
			}
			for _, in := range hostile.Amplifications(c.Info().Format, encode(t, id, sc), hostile.DefaultFanout) {
				if !strings.HasPrefix(in.Name, "dag/") {
					continue
				}
				code, _, body := do(t, "POST", fmt.Sprintf("%s/api/http/%s?codec=%s", srv.URL, sc.ID, id), nil, in.Data)
				nested := sc.ID == "user-event"
				if nested && (code != 400 || !strings.Contains(string(body), "limit")) || code != 200 && code != 400 {
					t.Errorf("%s %s %s (%d bytes): %d %.200q; want 400 naming the limit (200 for one level of sharing)", id, sc.ID, in.Name, len(in.Data), code, body)
				}
				posted += uint64(len(in.Data))
				n++
			}
		}
	}
	runtime.ReadMemStats(&after)
	if n < 10 {
		t.Fatalf("only %d amplification inputs posted; the default set lost its FlatBuffers or Cap'n Proto codecs?", n)
	}
	if got, most := after.TotalAlloc-before.TotalAlloc, 128*posted; got > most {
		t.Errorf("%d amplification posts (%d bytes) allocated %d bytes in all, want at most %d", n, posted, got, most)
	}
}
