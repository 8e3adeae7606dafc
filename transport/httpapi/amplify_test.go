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
// within the bound and is answered (or refused 413 where the answer
// would pass MaxAnswerRatio); and what the whole series allocates,
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
				if nested && (code != 400 || !strings.Contains(string(body), "limit")) || code != 200 && code != 400 && code != 413 {
					t.Errorf("%s %s %s (%d bytes): %d %.200q; want 400 naming the limit (for one level of sharing, 200 or 413 for an answer over MaxAnswerRatio)", id, sc.ID, in.Name, len(in.Data), code, body)
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

// TestAnswerRatio posts issue 44's amplification through encoding/json: a
// body of empty items, each answered with every field of an item. The
// answer passes MaxAnswerRatio times the body and is refused with a 413
// naming the ratio and its flag; the seed value's own round trip is
// answered.
func TestAnswerRatio(t *testing.T) {
	_, srv := newServer(t, Options{})
	u := srv.URL + "/api/http/user-event?codec=encoding/json"
	body := []byte(`{"items":[{}` + strings.Repeat(`,{}`, 100_000) + `]}`)
	code, _, answer := do(t, "POST", u, nil, body)
	if code != 413 || !strings.Contains(string(answer), "MaxAnswerRatio 8") || !strings.Contains(string(answer), "-api-max-answer-ratio") {
		t.Fatalf("%d-byte body of empty items: %d %.300q; want 413 naming the ratio and its flag", len(body), code, answer)
	}
	sc, _ := scenario.Select(scenario.Seeds(), []string{"user-event"})
	if code, _, answer := do(t, "POST", u, nil, encode(t, "encoding/json", sc[0])); code != 200 {
		t.Fatalf("the seed value: %d %.300q, want 200", code, answer)
	}
	for _, fw := range []string{"gin", "echo"} {
		code, _, answer := do(t, "POST", srv.URL+"/api/"+fw+"/user-event?codec=encoding/json", map[string]string{"Content-Type": "application/json"}, body)
		if code != 413 {
			t.Errorf("%s: %d %.300q, want 413", fw, code, answer)
		}
	}
}
