package plan

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// MeasurePermessageDeflate's size is the DEFLATE level-1 message as
// gorilla/websocket sends it (the tail stripped), less the header; the
// figures are filled in and the codec's own are kept.
func TestMeasurePermessageDeflate(t *testing.T) {
	reg := all.Registry()
	c, _ := reg.Lookup("encoding/json")
	var s scenario.Scenario
	for _, x := range scenario.Seeds() {
		if x.ID == "user-profile" {
			s = x
		}
	}
	base := Option{Codec: "encoding/json", Compressor: None, MarshalNs: Point(1000), UnmarshalNs: Point(2000), PayloadBytes: 1, SendEfficiency: 0.9}
	o, err := MeasurePermessageDeflate(c, s, base, time.Millisecond, 1)
	if err != nil {
		t.Fatal(err)
	}
	if o.Compressor != PermessageDeflate || !o.Binary || o.MarshalNs != base.MarshalNs || o.SendEfficiency != 0.9 {
		t.Errorf("option %+v does not keep the codec's figures", o)
	}
	if o.CompressNs.Mid <= 0 || o.DecompressNs.Mid <= 0 || o.CompressNs.Lo > o.CompressNs.Mid || o.CompressNs.Mid > o.CompressNs.Hi {
		t.Errorf("compress %+v, decompress %+v", o.CompressNs, o.DecompressNs)
	}
	b, _ := c.Bind(s.Value())
	data, err := b.Marshal(s.Value())
	if err != nil {
		t.Fatal(err)
	}
	// A level-1 stream of another header and the payload, the tail
	// stripped: the header's digits compress a few bytes differently.
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, 1)
	fw.Write(append([]byte(strings.Repeat("0", ws.HeaderLen-1)+"\n"), data...))
	fw.Flush()
	if want := float64(buf.Len() - 4 - ws.HeaderLen); o.PayloadBytes < want-16 || o.PayloadBytes > want+16 {
		t.Errorf("payload %g B, want %g ± 16 (level 1, tail stripped, less the header)", o.PayloadBytes, want)
	}
	if o.PayloadBytes >= float64(len(data)) {
		t.Errorf("user-profile's JSON (%d B) does not shrink: %g B", len(data), o.PayloadBytes)
	}
	got, err := io.ReadAll(flate.NewReader(io.MultiReader(bytes.NewReader(buf.Bytes()[:buf.Len()-4]), strings.NewReader(deflateTail))))
	if err != nil || !bytes.Equal(got[ws.HeaderLen:], data) {
		t.Errorf("inflate: %v", err)
	}
}

// A codec that cannot carry the scenario is an error naming it.
func TestMeasurePermessageDeflateNA(t *testing.T) {
	c, ok := all.Registry().Lookup("vtprotobuf")
	if !ok {
		t.Skip("no vtprotobuf")
	}
	s := scenario.Scenario{ID: "odd", Value: func() any { return &struct{ X chan int }{} }}
	if _, err := MeasurePermessageDeflate(c, s, Option{Codec: "vtprotobuf"}, time.Millisecond, 1); err == nil || !strings.Contains(err.Error(), "vtprotobuf on odd") {
		t.Errorf("err = %v", err)
	}
}

// The marshal timer the transport's runs are paired with gives a median
// inside its interval; a scenario that does not exist is an error naming
// it.
func TestMarshalTimer(t *testing.T) {
	c, _ := all.Registry().Lookup("encoding/json")
	timer, err := marshalTimer(c, "ws-message", scenario.Seeds())
	if err != nil {
		t.Fatal(err)
	}
	if iv, err := timer(); err != nil || iv.Lo <= 0 || iv.Lo > iv.Mid || iv.Mid > iv.Hi {
		t.Errorf("marshal: %+v ns, %v", iv, err)
	}
	if _, err := marshalTimer(c, "nosuch", scenario.Seeds()); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("err = %v", err)
	}
}

// MeasureSSEGzip's compressed event is what serve writes per live event:
// on a real server with gzip on, the body of a stream of n2 events less
// that of n1 events (same first lines, first event and end), over n2−n1,
// is the plan's compressed event (PayloadBytes; FramingBytes are the
// event's framing lines) within 3 B or 15% (the ids' and times' digits compress a little
// differently), 60% for a codec whose maps come out in random order (its
// events vary from one to the next, here and in serve: over 30 runs of
// this test, msgpack's event read 24-42.5 B per event from serve and
// 24-42.7 B from plan, and two independent draws differed by up to 40%;
// at 35% one run in nine failed), for a text, a binary (base64) and a
// random-order codec; and the event compresses below its payload (the
// previous event is the dictionary).
func TestMeasureSSEGzip(t *testing.T) {
	var on server.Options
	on.SSE.Gzip = true
	base := servertest.Start(t, on).URL
	reg := all.Registry()
	s := seed(t, "user-profile")
	const rate, n1, n2 = 500, 5, 45
	for _, tc := range []struct {
		id  string
		tol float64
	}{{"encoding/json", 0.15}, {"wire", 0.15}, {"msgpack", 0.6}} {
		t.Run(tc.id, func(t *testing.T) {
			c, ok := reg.Lookup(tc.id)
			if !ok {
				t.Skip("not registered")
			}
			o, err := MeasureSSEGzip(c, s, Option{Codec: tc.id, Compressor: None, MarshalNs: Point(1000)}, time.Second/rate, time.Millisecond, 1)
			if err != nil {
				t.Fatal(err)
			}
			if o.Compressor != SSEGzip || o.Binary || o.MarshalNs != Point(1000) || o.CompressNs.Mid <= 0 || o.DecompressNs.Mid <= 0 {
				t.Errorf("option %+v", o)
			}
			marshal, err := marshalNative(c, s)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := marshal()
			if err != nil {
				t.Fatal(err)
			}
			// The event's framing lines: an event of the same id and time
			// with no payload.
			lines := sse.AppendEvent(nil, s.ID, &transport.Message{Seq: 12_345, Intended: time.Unix(1_764_390_000, 123_456_789)}, c.Info().Binary)
			if o.FramingBytes < float64(len(lines))-3 || o.FramingBytes > float64(len(lines))+3 {
				t.Errorf("framing %g B, want the %d B of the event's lines ± 3 (their digits)", o.FramingBytes, len(lines))
			}
			event := o.PayloadBytes
			if event >= float64(len(payload)) {
				t.Errorf("compressed event %g B, not below the %d B payload", event, len(payload))
			}
			b1, b2 := gzipBody(t, base, tc.id, n1), gzipBody(t, base, tc.id, n2)
			perEvent := float64(b2-b1) / (n2 - n1)
			t.Logf("%s: serve %g B per event, plan %g B (payload %d B)", tc.id, perEvent, event, len(payload))
			if tol := max(3, tc.tol*event); perEvent < event-tol || perEvent > event+tol {
				t.Errorf("serve wrote %g B per event (%d B for %d events, %d for %d), plan predicts %g ± %g", perEvent, b2, n2, b1, n1, event, tol)
			}
		})
	}
}

// gzipBody is the length of the compressed body of a new stream of n
// events of codecID's user-profile from the server at base, asking for
// gzip (and checking it came).
func gzipBody(t *testing.T, base, codecID string, n int) int {
	t.Helper()
	u := fmt.Sprintf("%s/sse?scenario=user-profile&codec=%s&rate=500&count=%d&stream=%s", base, url.QueryEscape(codecID), n, url.QueryEscape(fmt.Sprintf("%s-%d", t.Name(), n)))
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("status %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// seed is the seed scenario id.
func seed(t *testing.T, id string) scenario.Scenario {
	t.Helper()
	for _, x := range scenario.Seeds() {
		if x.ID == id {
			return x
		}
	}
	t.Fatalf("no seed %s", id)
	return scenario.Scenario{}
}

// ServeCompressors lists one compressor per transport, and the load
// client reports serve's SSE gzip as "gzip".
func TestServeCompressors(t *testing.T) {
	if got := ServeCompressors("sse"); len(got) != 1 || got[0] != SSEGzip {
		t.Errorf("sse: %v", got)
	}
	if got := ServeCompressors("ws"); len(got) != 1 || got[0] != PermessageDeflate {
		t.Errorf("ws: %v", got)
	}
	if got := ServeCompressors("tcp"); got != nil {
		t.Errorf("tcp: %v", got)
	}
	if loadCompression(SSEGzip) != "gzip" || loadCompression(PermessageDeflate) != PermessageDeflate {
		t.Error("load's compression names")
	}
}
