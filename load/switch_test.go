package load_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// A switch moves every stream from one codec to another without a
// reconnect, over each transport: every message arrives once and decodes
// with the codec its tag names; before the ramp every message is the old
// codec's, after it every one is the new codec's, and during it both.
func TestSwitchNoLossNoMisdecode(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	for _, tc := range []struct{ tr, from, to string }{
		{"sse", "encoding/json", "msgpack"}, // text to binary: base64 starts mid-stream
		{"ws", "encoding/json", "protobuf"}, // text frames to binary frames, codegen codec
		{"ws", "cbor", "sonic"},             // binary to text
	} {
		t.Run(tc.tr+"/"+tc.from+"→"+tc.to, func(t *testing.T) {
			rs, err := load.Run(context.Background(), load.Options{
				Registry:  all.Registry(),
				Transport: tc.tr, URL: base, Conns: 4, Rate: 100, Duration: 600 * time.Millisecond,
				Codecs: []string{tc.from}, Grace: 20 * time.Second,
				Switch: &load.SwitchOptions{To: tc.to, At: 200 * time.Millisecond, Ramp: 200 * time.Millisecond},
			})
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			if r.Received != r.Expected || r.Expected != 240 || r.Lost != 0 || r.DecodeErrors != 0 || r.Errors != 0 || r.Reconnects != 0 {
				t.Fatalf("%+v", r)
			}
			s := r.Switch
			if s == nil || s.Misdecoded != 0 || s.WrongCodec != 0 || s.Lost != 0 || s.From != tc.from || s.To != tc.to {
				t.Fatalf("switch %+v", s)
			}
			before, during, after := s.Phases[0], s.Phases[1], s.Phases[2]
			if before.ToMsgs != 0 || before.FromMsgs != before.Received || before.Received == 0 {
				t.Errorf("before: %+v", before)
			}
			if during.ToMsgs == 0 || during.FromMsgs == 0 {
				t.Errorf("during: both codecs should carry messages: %+v", during)
			}
			if after.FromMsgs != 0 || after.ToMsgs != after.Received || after.Received == 0 {
				t.Errorf("after: %+v", after)
			}
			if got := before.Received + during.Received + after.Received; got != r.Received {
				t.Errorf("phases hold %d messages, received %d", got, r.Received)
			}
			var out bytes.Buffer
			rep := load.Report{Schema: load.Schema, Env: env.Collect(time.Now().UTC(), map[string]string{}), Transport: rs}
			if err := load.WriteJSON(&out, rep); err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(out.Bytes()); err != nil {
				t.Errorf("switch result does not conform to docs/schema: %v", err)
			}
		})
	}
}

func TestSwitchOptionErrors(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	ok := load.Options{URL: base, Registry: all.Registry(), Codecs: []string{"encoding/json"}, Duration: time.Second}
	for _, tc := range []struct {
		name string
		mod  func(o *load.Options)
		want string
	}{
		{"same codec", func(o *load.Options) { o.Switch = &load.SwitchOptions{To: "encoding/json", At: 100 * time.Millisecond} }, "the codec already"},
		{"two codecs", func(o *load.Options) {
			o.Codecs = []string{"encoding/json", "cbor"}
			o.Switch = &load.SwitchOptions{To: "msgpack", At: 100 * time.Millisecond}
		}, "exactly one -codecs"},
		{"at after the end", func(o *load.Options) { o.Switch = &load.SwitchOptions{To: "msgpack", At: 2 * time.Second} }, "invalid switch time"},
		{"ramp past the end", func(o *load.Options) {
			o.Switch = &load.SwitchOptions{To: "msgpack", At: 500 * time.Millisecond, Ramp: time.Second}
		}, "exceeds the duration"},
		{"unknown codec", func(o *load.Options) { o.Switch = &load.SwitchOptions{To: "nope", At: 100 * time.Millisecond} }, `"nope"`},
		{"reference row", func(o *load.Options) { o.Switch = &load.SwitchOptions{To: "memmove", At: 100 * time.Millisecond} }, "reference row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.mod(&o)
			_, err := load.Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %s", err, tc.want)
			}
		})
	}
	sw, err := load.ParseSwitch("msgpack@10s", 0)
	if err != nil || sw.To != "msgpack" || sw.At != 10*time.Second {
		t.Errorf("ParseSwitch = %+v, %v", sw, err)
	}
	for _, bad := range []string{"msgpack", "@10s", "msgpack@soon"} {
		if _, err := load.ParseSwitch(bad, 0); err == nil {
			t.Errorf("ParseSwitch(%q) gave no error", bad)
		}
	}
}

// ParseMix reads weights in order, skipping empty items; a word is an
// error naming it.
func TestParseMix(t *testing.T) {
	mix, err := load.ParseMix("50, 25,,25")
	if err != nil || !slices.Equal(mix, []float64{50, 25, 25}) {
		t.Errorf("ParseMix = %v, %v, want [50 25 25]", mix, err)
	}
	if _, err := load.ParseMix("1,lots"); err == nil || !strings.Contains(err.Error(), `"lots"`) {
		t.Errorf("a word: err = %v", err)
	}
}
