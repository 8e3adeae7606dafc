package server_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/browsertest"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
)

// pageRow is one row of window.serbenchResults (static/page.js, newRow).
type pageRow struct {
	Transport    string   `json:"transport"`
	Codec        string   `json:"codec"`
	Format       string   `json:"format"`
	Decoder      string   `json:"decoder"`
	Expected     int      `json:"expected"`
	Messages     int      `json:"messages"`
	PayloadBytes int      `json:"payload_bytes"`
	Lost         int      `json:"lost"`
	OutOfOrder   int      `json:"out_of_order"`
	DecodeErrors int      `json:"decode_errors"`
	Errors       int      `json:"errors"`
	Reconnects   int      `json:"reconnects"`
	DecodeUsLive float64  `json:"decode_us_live"`
	DecodeNs     float64  `json:"decode_ns"`
	DecodeNsMed  float64  `json:"decode_ns_median"`
	Base64Ns     float64  `json:"base64_ns"`
	LatencyP50Ms *float64 `json:"latency_p50_ms"`
	Canonical    string   `json:"canonical"`
	FirstError   string   `json:"first_error"`
}

type pageResults struct {
	Done     bool      `json:"done"`
	Error    string    `json:"error"`
	Isolated bool      `json:"isolated"` // window.crossOriginIsolated
	Rows     []pageRow `json:"rows"`
}

// runPage opens the demo page on base with query q in headless Chromium
// and returns window.serbenchResults once the page is done.
func runPage(tb testing.TB, browser, base string, q url.Values) pageResults {
	tb.Helper()
	ctx := browsertest.Start(tb, browser, base+"/?"+q.Encode())
	raw, err := chromedp.Run(ctx, chromedp.Poll[string](
		`window.serbenchResults && window.serbenchResults.done && JSON.stringify(window.serbenchResults)`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(3*time.Minute)))
	if err != nil {
		tb.Fatalf("chromium: waiting for window.serbenchResults: %v", err)
	}
	var res pageResults
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		tb.Fatalf("window.serbenchResults: %v\n%.500s", err, raw)
	}
	if res.Error != "" {
		tb.Fatalf("page error: %s", res.Error)
	}
	return res
}

// TestBrowserDecodes streams every codec the page can decode over SSE and
// WebSocket into headless Chromium and checks that every message arrives,
// in order, and decodes to the scenario value.
func TestBrowserDecodes(t *testing.T) {
	browser := browsertest.Find(t)
	base := servertest.Start(t, server.Options{}).URL
	rv := transport.Resolver{Codecs: all.Registry(), Scenarios: scenario.Seeds()}
	const count = 20
	// Scenarios whose every field a browser decodes exactly with each
	// library: no time.Time (msgpack's Date keeps milliseconds) and no
	// integer above 2^53 (JSON.parse rounds it).
	for _, sid := range []string{"sse-event", "ws-message"} {
		t.Run(sid, func(t *testing.T) {
			ss, err := scenario.Select(rv.Scenarios, []string{sid})
			if err != nil {
				t.Fatal(err)
			}
			want := jsonForm(t, ss[0].Value())
			q := url.Values{"autorun": {"1"}, "scenario": {sid}, "count": {strconv.Itoa(count)},
				"rate": {"500"}, "bench_ms": {"0"}}
			res := runPage(t, browser, base, q)
			if !res.Isolated {
				t.Error("page is not cross-origin isolated (COOP/COEP headers): performance.now() is coarse")
			}
			rows := map[string]pageRow{}
			for _, r := range res.Rows {
				rows[r.Transport+" "+r.Codec] = r
			}
			decodable := 0
			for _, bc := range server.BrowserCodecs(rv, ss[0]) {
				if bc.Decoder == "" {
					continue
				}
				decodable++
				for _, tr := range []string{"sse", "ws"} {
					r, ok := rows[tr+" "+bc.ID]
					if !ok {
						t.Errorf("%s %s: no row", tr, bc.ID)
						continue
					}
					if r.Messages != count || r.Lost != 0 || r.OutOfOrder != 0 || r.DecodeErrors != 0 || r.Errors != 0 {
						t.Errorf("%s %s: %d/%d messages, %d lost, %d out of order, %d decode errors, %d errors (%s)",
							tr, bc.ID, r.Messages, count, r.Lost, r.OutOfOrder, r.DecodeErrors, r.Errors, r.FirstError)
						continue
					}
					var got any
					if err := json.Unmarshal([]byte(r.Canonical), &got); err != nil {
						t.Errorf("%s %s: canonical %q: %v", tr, bc.ID, r.Canonical, err)
						continue
					}
					if g := normalize(got); !reflect.DeepEqual(g, want) {
						t.Errorf("%s %s decoded\n  %v\nwant (encoding/json form)\n  %v", tr, bc.ID, g, want)
					}
				}
			}
			// JSON (10 codecs), MessagePack (2), CBOR (1), Protocol Buffers (3).
			if decodable < 16 {
				t.Errorf("%d codecs decodable in the browser, want at least 16", decodable)
			}
		})
	}
}

// jsonForm is v's encoding/json form, normalized.
func jsonForm(tb testing.TB, v any) any {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		tb.Fatal(err)
	}
	return normalize(x)
}

var integerRE = regexp.MustCompile(`^-?[0-9]+$`)

// normalize maps a decoded value to a form that every codec's browser
// decoding of the same Go value shares: object keys lower-cased without
// '_' (Go field names, JSON tags and .proto names agree then), zero fields
// left out (proto3 does not send them), and numbers and numeric strings
// (protobufjs writes 64-bit integers as strings) as canonical decimal
// strings, integers exactly.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			n := normalize(e)
			if isZero(n) {
				continue
			}
			out[strings.ReplaceAll(strings.ToLower(k), "_", "")] = n
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case float64:
		return number(strconv.FormatFloat(x, 'f', -1, 64))
	case string:
		return number(x)
	}
	return v
}

// number returns s as a canonical decimal when it is one, else s.
func number(s string) string {
	if integerRE.MatchString(s) {
		var n big.Int
		if _, ok := n.SetString(s, 10); ok {
			return n.String()
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && strings.ContainsAny(s, ".eE") {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}

func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == "" || x == "0"
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`{"EventID": 12, "x": false, "m": {}}`, `{"event_id": "12"}`},
		{`{"ts": 1700000000000}`, `{"TS": "1700000000000"}`},
		{`{"f": 0.5}`, `{"f": "0.5"}`},
	} {
		var a, b any
		if err := json.Unmarshal([]byte(tc.a), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tc.b), &b); err != nil {
			t.Fatal(err)
		}
		if na, nb := normalize(a), normalize(b); !reflect.DeepEqual(na, nb) {
			t.Errorf("normalize(%s) = %v, normalize(%s) = %v", tc.a, na, tc.b, nb)
		}
	}
	var a, b any
	_ = json.Unmarshal([]byte(`{"a": 1}`), &a)
	_ = json.Unmarshal([]byte(`{"a": 2}`), &b)
	if reflect.DeepEqual(normalize(a), normalize(b)) {
		t.Error("normalize makes 1 and 2 equal")
	}
}

// BenchmarkBrowserDecode reports the decode cost in headless Chromium per
// (scenario, transport, decoder), for the first codec of each decoder in
// codec/all's order (encoding/json, msgpack, cbor, protobuf: codecs of one
// format send the same bytes, up to map order and spacing).
// browser-decode-ns/msg is the fastest of 15 rounds of repeated decodes of
// one received payload (JSON.parse, @msgpack/msgpack, cbor-x, protobufjs;
// static/page.js, benchAll: the rows take turns, so load from other
// processes hits them alike), browser-decode-median-ns/msg the median round,
// base64-ns/msg what SSE's base64 adds for binary codecs (fastest round),
// payload-B/msg the codec's bytes. The ns/op it prints means nothing; the
// page runs once, before the sub-benchmarks.
//
//	go test ./transport/server -run '^$' -bench BrowserDecode -benchtime 1x
func BenchmarkBrowserDecode(b *testing.B) {
	browser := browsertest.Find(b)
	base := servertest.Start(b, server.Options{}).URL
	rv := transport.Resolver{Codecs: all.Registry(), Scenarios: scenario.Seeds()}
	for _, sid := range []string{"sse-event", "ws-message", "user-event", "user-profile", "annotation"} {
		ss, err := scenario.Select(rv.Scenarios, []string{sid})
		if err != nil {
			b.Fatal(err)
		}
		var ids []string
		seen := map[string]bool{}
		for _, bc := range server.BrowserCodecs(rv, ss[0]) {
			if bc.Decoder != "" && !seen[bc.Decoder] {
				seen[bc.Decoder] = true
				ids = append(ids, bc.ID)
			}
		}
		q := url.Values{"autorun": {"1"}, "scenario": {sid}, "count": {"50"}, "rate": {"200"},
			"bench_ms": {"300"}, "parallel": {"1"}, "codecs": {strings.Join(ids, ",")}}
		res := runPage(b, browser, base, q)
		for _, r := range res.Rows {
			b.Run(fmt.Sprintf("scenario=%s/transport=%s/codec=%s", sid, r.Transport, r.Codec), func(b *testing.B) {
				for b.Loop() {
				}
				b.ReportMetric(r.DecodeNs, "browser-decode-ns/msg")
				b.ReportMetric(r.DecodeNsMed, "browser-decode-median-ns/msg")
				if r.Base64Ns > 0 {
					b.ReportMetric(r.Base64Ns, "base64-ns/msg")
				}
				if r.Messages > 0 {
					b.ReportMetric(float64(r.PayloadBytes)/float64(r.Messages), "payload-B/msg")
				}
				if r.Messages != r.Expected || r.Lost+r.OutOfOrder+r.DecodeErrors+r.Errors > 0 {
					b.Errorf("%d/%d messages, %d lost, %d out of order, %d decode errors, %d errors (%s)",
						r.Messages, r.Expected, r.Lost, r.OutOfOrder, r.DecodeErrors, r.Errors, r.FirstError)
				}
			})
		}
	}
}
