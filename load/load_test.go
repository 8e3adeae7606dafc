package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
)

// Every codec of codec/all runs user-event at once over each transport:
// every message arrives once, in order, and decodes. The codecs that cannot
// take user-event, or keep it only approximately, are codec/all's known
// seed failures (codectest.SeedFailures): they are left out, and must still
// fail exactly as listed; any other codec that does not round-trip fails
// the test.
func TestEveryCodecNoLoss(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	known := codectest.SeedFailures()
	var ids []string
	for _, id := range all.Registry().IDs() {
		c, _ := all.Registry().Lookup(id)
		if c.Info().Kind == codec.Reference || c.Info().ParseOnly {
			continue
		}
		k := codectest.FindKnown(known, id, "user-event")
		t.Run("roundtrip/"+id, func(t *testing.T) {
			want := scenario.NewUserEvent()
			got, err := codec.RoundTrip(c, want)
			if err == nil {
				err = fidelity.Diff(want, got)
			}
			codectest.CheckKnown(t, k, err)
		})
		if k == nil {
			ids = append(ids, id)
		}
	}
	mix := make([]float64, len(ids))
	for i := range mix {
		mix[i] = 1
	}
	for _, tr := range load.Transports {
		t.Run(tr, func(t *testing.T) {
			rs, err := load.Run(context.Background(), load.Options{
				Registry:  all.Registry(),
				Transport: tr, URL: base, Conns: 2 * len(ids), Rate: 20, Duration: time.Second,
				Codecs: ids, Mix: mix, Scenario: "user-event", Grace: 20 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != len(ids) {
				t.Fatalf("%d results for %d codecs", len(rs), len(ids))
			}
			for _, r := range rs {
				if r.Conns != 2 || r.Expected != 40 || r.Received != r.Expected || r.Sent != r.Expected ||
					r.Lost != 0 || r.Duplicates != 0 || r.DecodeErrors != 0 || r.Errors != 0 {
					t.Errorf("%s/%s: %+v", tr, r.Codec, r)
				}
				if r.WireBytesPerMsg <= r.PayloadBytesPerMsg || r.PayloadBytesPerMsg == 0 {
					t.Errorf("%s/%s: wire %.1f payload %.1f", tr, r.Codec, r.WireBytesPerMsg, r.PayloadBytesPerMsg)
				}
				binary := false
				if c, _ := all.Registry().Lookup(r.Codec); c.Info().Binary {
					binary = true
				}
				if hasB64 := r.Base64BytesPerMsg > 0; hasB64 != (binary && tr == "sse") {
					t.Errorf("%s/%s: base64 bytes %.1f", tr, r.Codec, r.Base64BytesPerMsg)
				}
			}
		})
	}
}

// A codec that overwrites its previous Unmarshal value (and Marshal bytes)
// on the next call still gives every message, checked and decoded: the
// client compares a value before it decodes the next payload, and the hub
// copies reused payloads.
func TestReusingCodecChecked(t *testing.T) {
	reg, err := codec.NewRegistry(codectest.Scribble())
	if err != nil {
		t.Fatal(err)
	}
	base := servertest.Start(t, server.Options{Resolver: transport.Resolver{Codecs: reg}}).URL
	for _, tr := range load.Transports {
		rs, err := load.Run(context.Background(), load.Options{
			Transport: tr, URL: base, Conns: 2, Rate: 50, Duration: 200 * time.Millisecond,
			Codecs: []string{codectest.ScribbleID}, Scenario: "ws-message", Registry: reg, Grace: 10 * time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Received != r.Expected || r.Expected == 0 || r.DecodeErrors != 0 || r.Errors != 0 {
				t.Errorf("%s: %+v", tr, r)
			}
		}
	}
}

// Without -mix, codecs run one after the other, each with every connection.
func TestSequentialPhases(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	rs, err := load.Run(context.Background(), load.Options{
		URL: base, Conns: 5, Rate: 50, Duration: 200 * time.Millisecond, Registry: all.Registry(),
		Codecs: []string{"encoding/json", "msgpack"}, Grace: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Conns != 5 || r.Received != 50 || r.Lost != 0 {
			t.Errorf("%s: %+v", r.Codec, r)
		}
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:1", "http://127.9.9.9:80/x", "http://[::1]:8080", "ws://localhost:9"} {
		if _, err := load.CheckLoopback(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1:80", "http://example.com", "http://192.168.1.1", "http://[2001:db8::1]:80", "http://0.0.0.0:80"} {
		if _, err := load.CheckLoopback(u); !errors.Is(err, load.ErrNotLoopback) {
			t.Errorf("%s: err = %v, want ErrNotLoopback", u, err)
		}
	}
	for _, u := range []string{"ftp://127.0.0.1", "127.0.0.1:80", "http://"} {
		if _, err := load.CheckLoopback(u); err == nil {
			t.Errorf("%s: accepted", u)
		}
	}
	_, err := load.Run(context.Background(), load.Options{URL: "http://10.1.2.3:8080", Registry: all.Registry(), Conns: 1, Duration: time.Second})
	if !errors.Is(err, load.ErrNotLoopback) {
		t.Fatalf("Run to 10.1.2.3: err = %v", err)
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []load.Options{
		{Transport: "tcp"}, {Conns: -1}, {Rate: -1}, {Duration: time.Nanosecond},
		{Codecs: []string{"nope"}}, {Scenario: "nope"}, {Codecs: []string{"memmove"}},
		{Codecs: []string{"encoding/json", "gob"}, Mix: []float64{1}},
		{Codecs: []string{"encoding/json"}, Mix: []float64{0}},
	} {
		o.URL, o.Registry = "http://127.0.0.1:1", all.Registry()
		if _, err := o.Effective(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := (load.Options{URL: "http://127.0.0.1:1"}).Effective(); err == nil || !strings.Contains(err.Error(), "Registry is nil") {
		t.Errorf("no Registry: error %v, want one saying it is nil", err)
	}
}

// ReadReport reads what WriteJSON writes, and files from before the load
// document had a schema name of its own; it refuses other schemas.
func TestReadReportSchemas(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		schema string
		ok     bool
	}{{load.Schema, true}, {load.LegacySchema, true}, {"serbench-load/v9", false}} {
		doc := bytes.Replace(data, []byte(`"schema": "`+load.Schema+`"`), []byte(`"schema": "`+tc.schema+`"`), 1)
		rep, err := load.ReadReport(bytes.NewReader(doc), "report.json")
		if tc.ok && (err != nil || len(rep.Transport) != 2) {
			t.Errorf("schema %q: %d results, err = %v", tc.schema, len(rep.Transport), err)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.schema)) {
			t.Errorf("schema %q: err = %v, want one naming the schema", tc.schema, err)
		}
	}
}

func TestReportGolden(t *testing.T) {
	rep := load.Report{
		Schema: load.Schema,
		Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Modules: map[string]string{"github.com/bytedance/sonic": "v1.15.5"}, LoadAvg: "0.50 0.40 0.30"},
		Transport: []load.Result{
			{Transport: "sse", Codec: "encoding/json", Scenario: "sse-event", Conns: 500, Rate: 10, DurationS: 30,
				Expected: 150000, Sent: 150000, Received: 150000, MsgsPerS: 4990, P50Ms: 0.5, P90Ms: 1, P99Ms: 3.25, P999Ms: 7, MaxMs: 9.5,
				WireBytesPerMsg: 250, PayloadBytesPerMsg: 184, FramingBytesPerMsg: 66, ServerCPUSeconds: 10.5, CPUScope: "process", PeakRSSScope: "phase",
				PeakRSSBytes: 200 << 20, PublisherLagP50Ms: 0.6, PublisherLagP99Ms: 2, PublisherLagMaxMs: 5},
			{Transport: "sse", Codec: "msgpack", Scenario: "sse-event", Conns: 500, Rate: 10, DurationS: 30,
				Expected: 150000, Sent: 150000, Received: 149990, Lost: 10, Errors: 1, Reconnects: 1, MsgsPerS: 4989,
				WireBytesPerMsg: 262, PayloadBytesPerMsg: 147, FramingBytesPerMsg: 66, Base64BytesPerMsg: 49, CPUScope: "process", PeakRSSScope: "phase",
				Overflows: 1, Error: "load: sse read: unexpected EOF"},
		},
	}
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"report.table", func(b *bytes.Buffer) error { return load.WriteTable(b, rep) }},
		{"report.json", func(b *bytes.Buffer) error { return load.WriteJSON(b, rep) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tc.file), b.Bytes())
		})
	}
}

// gob/stream sends its type descriptors once per connection, as a
// preamble, over both transports: every message decodes, and the bytes per
// message (the preamble included) are fewer than per-message gob's.
func TestGobStreamPreamble(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	for _, tr := range load.Transports {
		t.Run(tr, func(t *testing.T) {
			rs, err := load.Run(context.Background(), load.Options{
				Registry:  all.Registry(),
				Transport: tr, URL: base, Conns: 4, Rate: 50, Duration: time.Second,
				Codecs: []string{"gob", "gob/stream"}, Mix: []float64{1, 1}, Scenario: "ws-message", Grace: 20 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 2 {
				t.Fatalf("%d results, want 2", len(rs))
			}
			for _, r := range rs {
				if r.Received != r.Expected || r.Lost != 0 || r.DecodeErrors != 0 || r.Errors != 0 {
					t.Errorf("%s/%s: %+v", tr, r.Codec, r)
				}
			}
			if perMsg, stream := rs[0].PayloadBytesPerMsg, rs[1].PayloadBytesPerMsg; stream >= perMsg {
				t.Errorf("%s: gob/stream %.1f payload bytes per message, gob %.1f", tr, stream, perMsg)
			}
		})
	}
}

// deaf marshals as encoding/json and refuses to unmarshal, counting the
// attempts: a client that decodes counts every message as a decode error.
type deaf struct{ calls *atomic.Int64 }

func (deaf) Info() codec.Info {
	return codec.Info{ID: "deaf", Module: "std", Format: "JSON", Kind: codec.Reflect, Options: "test codec: Unmarshal always fails"}
}
func (d deaf) Bind(any) (codec.Binding, error) { return d, nil }
func (deaf) Marshal(v any) ([]byte, error)     { return json.Marshal(v) }
func (d deaf) Unmarshal([]byte) (any, error) {
	d.calls.Add(1)
	return nil, errors.New("deaf: no unmarshal")
}

// With SkipUnmarshal the client reads and sequences every message without
// unmarshaling one (plan's transport rounds measure the receiving
// transport so); without it, the same run counts every message as a
// decode error.
func TestSkipUnmarshal(t *testing.T) {
	calls := new(atomic.Int64)
	reg, err := codec.NewRegistry(deaf{calls})
	if err != nil {
		t.Fatal(err)
	}
	base := servertest.Start(t, server.Options{Resolver: transport.Resolver{Codecs: reg}}).URL
	for _, tr := range load.Transports {
		for _, skip := range []bool{true, false} {
			calls.Store(0)
			rs, err := load.Run(context.Background(), load.Options{
				Transport: tr, URL: base, Conns: 2, Rate: 50, Duration: 200 * time.Millisecond, SkipUnmarshal: skip,
				Codecs: []string{"deaf"}, Scenario: "ws-message", Registry: reg, Grace: 10 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			wantErrs, wantCalls := uint64(0), int64(0)
			if !skip {
				wantErrs, wantCalls = r.Received, int64(r.Received)
			}
			if r.Received != r.Expected || r.Expected == 0 || r.Lost != 0 || r.DecodeErrors != wantErrs || calls.Load() != wantCalls {
				t.Errorf("%s, SkipUnmarshal %v: %d Unmarshal calls (want %d), %+v", tr, skip, calls.Load(), wantCalls, r)
			}
		}
	}
}

// The client's checks (each connection's decoder built from the
// scenario's value, its first message compared) are counted apart, so
// that plan can take them off the client's CPU: on Linux, where thread CPU
// time can be read, a run's CheckCPUSeconds is above 0.
func TestCheckCPUSeconds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is read on Linux only")
	}
	base := servertest.Start(t, server.Options{}).URL
	rs, err := load.Run(context.Background(), load.Options{
		Transport: "ws", URL: base, Conns: 4, Rate: 50, Duration: 100 * time.Millisecond, Registry: all.Registry(),
		Codecs: []string{"encoding/json"}, Scenario: "user-profile", Grace: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.CheckCPUSeconds <= 0 || r.Received != r.Expected || r.DecodeErrors != 0 {
		t.Errorf("check CPU %g s: %+v", r.CheckCPUSeconds, r)
	}
}
