package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

func newServer(t *testing.T, opts Options) (*API, *httptest.Server) {
	t.Helper()
	if opts.Resolver.Codecs == nil {
		opts.Resolver.Codecs = all.Registry()
	}
	if opts.DecodeTimeout == 0 {
		// The default second is wall time, which a loaded machine (the
		// race detector on a shared 2-core runner) can spend on a large
		// body: a test whose answer is not the time limit's must not get
		// it. The tests of the limit set their own.
		opts.DecodeTimeout = time.Minute
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return a, srv
}

func do(t *testing.T, method, url string, hdr map[string]string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, data
}

// decode decodes data with codec id and compares it with the scenario value.
func decode(t *testing.T, id string, sc scenario.Scenario, data []byte) {
	t.Helper()
	cs, err := all.Registry().Select([]string{id})
	if err != nil {
		t.Fatal(err)
	}
	b, err := cs[0].Bind(sc.Value())
	if err != nil {
		t.Fatal(err)
	}
	out, err := b.Unmarshal(data)
	if err == nil {
		out, err = codec.Value(b, out)
	}
	if err != nil {
		t.Fatalf("%s: decode %d bytes: %v", id, len(data), err)
	}
	if err := sc.Diff(out); err != nil {
		t.Fatalf("%s: decoded value differs: %v", id, err)
	}
}

func encode(t *testing.T, id string, sc scenario.Scenario) []byte {
	t.Helper()
	cs, err := all.Registry().Select([]string{id})
	if err != nil {
		t.Fatal(err)
	}
	b, err := cs[0].Bind(sc.Value())
	if err != nil {
		t.Fatal(err)
	}
	data, err := codec.Encode(b, sc.Value())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRoundTrip(t *testing.T) {
	a, srv := newServer(t, Options{DecodeCodecs: []string{"*"}}) // msgpack among them: trusted bodies
	ss, _ := scenario.Select(scenario.Seeds(), []string{"user-event"})
	sc := ss[0]
	codecs := []struct{ id, ctype string }{
		{"encoding/json", "application/json"},
		{"jsoniter", "application/json"},
		{"sonic", "application/json"},
		{"protobuf", "application/x-protobuf"},
		{"msgpack", "application/msgpack"},
		{"cbor", "application/cbor"},
	}
	want := 0
	for _, fw := range Frameworks {
		for _, c := range codecs {
			t.Run(fw+"/"+c.id, func(t *testing.T) {
				url := srv.URL + "/api/" + fw + "/user-event?codec=" + c.id
				code, h, body := do(t, "GET", url, nil, nil)
				if code != 200 {
					t.Fatalf("GET: %d %s", code, body)
				}
				if h.Get("Content-Type") != c.ctype || h.Get(CodecHeader) != c.id {
					t.Errorf("GET: Content-Type %q, %s %q; want %q, %q", h.Get("Content-Type"), CodecHeader, h.Get(CodecHeader), c.ctype, c.id)
				}
				decode(t, c.id, sc, body)
				code, _, body = do(t, "POST", url, map[string]string{"Content-Type": c.ctype}, encode(t, c.id, sc))
				if code != 200 {
					t.Fatalf("POST: %d %s", code, body)
				}
				decode(t, c.id, sc, body)
			})
			want += 2
		}
	}
	var got uint64
	for _, rc := range a.Stats().Requests {
		got += rc.OK
		if rc.Errors != 0 {
			t.Errorf("stats: %+v has errors", rc)
		}
	}
	if got != uint64(want) {
		t.Errorf("stats: %d requests OK, want %d", got, want)
	}
	if st := a.Stats(); st.HeapAllocBytes == 0 || st.HeapAllocObjects == 0 {
		t.Errorf("stats: no heap allocation figures: %+v", st)
	}
}

func TestNegotiation(t *testing.T) {
	_, srv := newServer(t, Options{DecodeCodecs: []string{"*"}})
	ss, _ := scenario.Select(scenario.Seeds(), []string{"ws-message"})
	sc := ss[0]
	for _, fw := range Frameworks {
		url := srv.URL + "/api/" + fw + "/ws-message"
		for _, tc := range []struct {
			accept, codec string
		}{
			{"", "encoding/json"},
			{"*/*", "encoding/json"},
			{"text/html, application/msgpack;q=0.9", "msgpack"},
			{"application/x-protobuf", "protobuf"},
			{"application/cbor", "cbor"},
		} {
			code, h, body := do(t, "GET", url, map[string]string{"Accept": tc.accept}, nil)
			if code != 200 || h.Get(CodecHeader) != tc.codec {
				t.Errorf("%s: Accept %q: %d, codec %q; want 200, %q", fw, tc.accept, code, h.Get(CodecHeader), tc.codec)
				continue
			}
			decode(t, tc.codec, sc, body)
		}
		code, h, body := do(t, "POST", url, map[string]string{"Content-Type": "application/msgpack"}, encode(t, "msgpack", sc))
		if code != 200 || h.Get(CodecHeader) != "msgpack" {
			t.Errorf("%s: POST msgpack: %d, codec %q: %s", fw, code, h.Get(CodecHeader), body)
		}
	}
}

func TestErrors(t *testing.T) {
	_, srv := newServer(t, Options{MaxBodyBytes: 64})
	big := bytes.Repeat([]byte(" "), 65)
	for _, fw := range Frameworks {
		base := srv.URL + "/api/" + fw
		for _, tc := range []struct {
			name, method, path string
			hdr                map[string]string
			body               []byte
			code               int
			msg                string
		}{
			{"unknown scenario", "GET", "/nope", nil, nil, 400, `"nope"`},
			{"unknown codec", "GET", "/ws-message?codec=nope", nil, nil, 400, `"nope"`},
			{"reference row", "GET", "/ws-message?codec=memmove", nil, nil, 400, "memmove"},
			{"accept", "GET", "/ws-message", map[string]string{"Accept": "text/html"}, nil, 406, "text/html"},
			{"content type", "POST", "/ws-message", map[string]string{"Content-Type": "text/plain"}, []byte("x"), 415, "text/plain"},
			{"too large", "POST", "/ws-message", map[string]string{"Content-Type": "application/json"}, big, 413, "64"},
			{"bad body", "POST", "/ws-message", map[string]string{"Content-Type": "application/json"}, []byte("{"), 400, "encoding/json"},
			{"bad protobuf", "POST", "/ws-message?codec=protobuf", nil, []byte{0xff, 0xff}, 400, "protobuf"},
			{"decode disabled", "POST", "/ws-message?codec=msgpack", nil, []byte{0x80}, 415, `"msgpack"`},
			{"decode disabled by media type", "POST", "/ws-message", map[string]string{"Content-Type": "application/msgpack"}, []byte{0x80}, 415, `"msgpack"`},
		} {
			code, _, body := do(t, tc.method, base+tc.path, tc.hdr, tc.body)
			if code != tc.code || !strings.Contains(string(body), tc.msg) || !strings.HasPrefix(string(body), "httpapi: ") {
				t.Errorf("%s %s: %d %q; want %d and a message naming %s", fw, tc.name, code, body, tc.code, tc.msg)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		name string
	}{
		{Options{MaxBodyBytes: -1}, "-1"},
		{Options{DecodeTimeout: time.Nanosecond}, "DecodeTimeout 1ns"},
		{Options{MaxDecodes: 5000}, "MaxDecodes 5000"},
		{Options{MaxDecodes: 4, DecodeWorkers: 8}, "DecodeWorkers 8 (range is [0, MaxDecodes 4]; serve -api-decode-workers, -api-max-decodes)"},
		{Options{DecodeWorkers: -1}, "DecodeWorkers -1"},
		{Options{DecodeMemory: 1 << 20}, "DecodeMemory 1048576"},
		{Options{DecodeCodecs: []string{"nope"}}, `"nope"`},
		{Options{Resolver: transport.Resolver{}}, "Resolver.Codecs is nil"},
	} {
		if tc.name != "Resolver.Codecs is nil" {
			tc.o.Resolver.Codecs = all.Registry()
		}
		if _, err := New(tc.o); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("New(%+v) = %v, want an error naming %s", tc.o, err, tc.name)
		}
	}
}
