package serbench_test

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
)

var order = &Order{ID: "ord-1842", Created: time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC),
	Customer: "Ada Lovelace", Items: 3, Paid: true, Total: 129.95}

// findings returns the status of each codec.
func statuses(f serbench.Fidelity) map[string]serbench.Status {
	m := map[string]serbench.Status{}
	for _, x := range f {
		m[x.Codec] = x.Status
	}
	return m
}

func TestFidelity(t *testing.T) {
	// The default set: reflection codecs take Order, the code generators
	// and wire (built for serbench's own payloads) cannot.
	f, err := serbench.Options{}.Fidelity(order)
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(f)
	for id, want := range map[string]serbench.Status{
		"encoding/json": serbench.OK, "json-v2": serbench.OK, "cbor": serbench.OK, "gob": serbench.OK,
		"msgpack": serbench.OK, "protobuf": serbench.NA, "easyjson": serbench.NA, "flatbuffers": serbench.NA,
		"protobuf/derived": serbench.OK, "avro/derived": serbench.OK,
	} {
		if st[id] != want {
			t.Errorf("%s: %s, want %s", id, st[id], want)
		}
	}
	for _, x := range f {
		if x.Status == serbench.NA && !errors.Is(x.Err, codec.ErrUnsupported) {
			t.Errorf("%s: n/a for a reason other than the type: %v", x.Codec, x.Err)
		}
		if x.Status == serbench.OK && (x.Size == 0 || x.Err != nil) {
			t.Errorf("%s: ok with size %d and error %v", x.Codec, x.Size, x.Err)
		}
		// A codegen codec whose stock code lacks the type says which
		// serbench init generates it.
		if hint, ok := map[string]string{"protobuf": "-codegen protobuf ", "vtprotobuf": "-codegen protobuf,vtprotobuf ", "flatbuffers": "-codegen flatbuffers ", "easyjson": "-codegen easyjson "}[x.Codec]; ok &&
			(x.Err == nil || !strings.Contains(x.Err.Error(), "(serbench init -type Order "+hint+"generates the code for your type)")) {
			t.Errorf("%s: %v, want the serbench init hint", x.Codec, x.Err)
		}
	}
}

// The derived codecs need no schema of the user's: they take Order, and
// one that loses part of a value is lossy with what its schema loses.
func TestFidelityDerived(t *testing.T) {
	o := *order
	o.Created = time.Date(2026, 11, 23, 9, 30, 0, 1, time.FixedZone("CET", 3600)) // 1 ns past the µs
	f, err := serbench.Options{Codecs: []string{"protobuf/derived", "avro/derived"}}.Fidelity(&o)
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 2 || f[0].Status != serbench.OK || f[0].Size == 0 {
		t.Fatalf("protobuf/derived: %+v, want ok (the instant is kept)", f)
	}
	if f[1].Status != serbench.Lossy || !strings.Contains(f[1].Err.Error(), ".Created") ||
		!strings.Contains(f[1].Err.Error(), "derived avsc schema maps time.Time to long timestamp-micros: nanoseconds below the microsecond") {
		t.Errorf("avro/derived: %s %v, want lossy at .Created with the schema's loss", f[1].Status, f[1].Err)
	}
	// The losses of each derived schema, whether or not the value shows
	// them: the time of Order in both.
	table := f.Losses()
	for _, want := range []string{
		"protobuf/derived  .Created  time.Time  google.protobuf.Timestamp  time zone",
		"avro/derived      .Created  time.Time  long timestamp-micros      nanoseconds below the microsecond",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("Losses() does not have %q:\n%s", want, table)
		}
	}
	tb := &fakeTB{TB: t}
	serbench.Check(tb, &o, serbench.Options{Codecs: []string{"protobuf/derived", "avro/derived"}})
	if len(tb.logs) != 2 || tb.logs[1] != "what the schemas derived from *serbench_test.Order can lose, whether or not this value shows it:\n"+table {
		t.Errorf("Check logged %q", tb.logs)
	}
	// A type with a channel: n/a, the field named.
	f, err = serbench.Options{Codecs: []string{"protobuf/derived"}}.Fidelity(&withChan{C: make(chan int)})
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Status != serbench.NA || !strings.Contains(f[0].Err.Error(), ".C (chan int)") {
		t.Errorf("chan field: %s %v", f[0].Status, f[0].Err)
	}
}

// A non-pointer value is copied, the same findings as for a pointer.
func TestFidelityValue(t *testing.T) {
	o := serbench.Options{Codecs: []string{"encoding/json", "gob"}}
	f, err := o.Fidelity(*order)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.String(); !strings.Contains(got, "encoding/json  kept") || strings.Count(got, "\n") != 3 {
		t.Errorf("table:\n%s", got)
	}
}

// withAny loses the type of N through JSON (int64 becomes float64).
type withAny struct{ N any }

func TestFidelityLossyAndCompare(t *testing.T) {
	v := &withAny{N: int64(1) << 60}
	f, err := serbench.Options{Codecs: []string{"encoding/json", "gob"}}.Fidelity(v)
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Status != serbench.Lossy || !strings.Contains(f[0].Err.Error(), ".N") {
		t.Errorf("encoding/json: %s %v, want lossy at .N", f[0].Status, f[0].Err)
	}
	if f[1].Status != serbench.OK { // gob sends the dynamic type of N
		t.Errorf("gob: %s %v, want ok", f[1].Status, f[1].Err)
	}
	// A comparison of the user's own that accepts any value.
	f, err = serbench.Options{Codecs: []string{"encoding/json"}, Compare: func(want, got any) error { return nil }}.Fidelity(v)
	if err != nil || f[0].Status != serbench.OK {
		t.Errorf("with a lenient Compare: %v %v", f, err)
	}
}

type (
	withChan     struct{ C chan int }
	withFunc     struct{ F func() }
	unexported   struct{ n int }
	node         struct{ Next *node }
	mapCycle     map[string]any
	panicky      struct{ N int }
	panickyCodec struct{}
)

func (panickyCodec) Info() codec.Info { return codec.Info{ID: "panicky"} }
func (panickyCodec) Bind(any) (codec.Binding, error) {
	return codec.Funcs{Meta: codec.Info{ID: "panicky"},
		Marshal:   func(any) ([]byte, error) { panic("boom") },
		Unmarshal: func([]byte, any) error { return nil }}.Bind(new(panicky))
}

// Bad input is an error of the whole call or a finding per codec, never a
// panic.
func TestBadInput(t *testing.T) {
	cyc := &node{}
	cyc.Next = cyc
	mc := mapCycle{}
	mc["self"] = mc
	var nilOrder *Order
	reflectCodecs := []string{"encoding/json", "json-v2", "jsoniter", "go-json", "sonic", "segmentio-json", "msgpack", "cbor", "gob"}
	for _, tc := range []struct {
		name    string
		v       any
		opts    serbench.Options
		wantErr string
		// want is the status of every codec when wantErr is "".
		want serbench.Status
	}{
		{name: "nil", v: nil, wantErr: "is nil"},
		{name: "nil pointer", v: nilOrder, wantErr: "nil *serbench_test.Order"},
		{name: "pointer cycle", v: cyc, wantErr: "refers to itself at .Next"},
		{name: "map cycle", v: &mc, wantErr: "refers to itself"},
		{name: "chan field", v: &withChan{C: make(chan int)}, opts: serbench.Options{Codecs: []string{"encoding/json", "json-v2", "cbor", "gob"}}, want: serbench.Error},
		{name: "func field", v: &withFunc{F: func() {}}, opts: serbench.Options{Codecs: []string{"encoding/json", "json-v2", "cbor", "gob"}}, want: serbench.Error},
		{name: "unexported only", v: &unexported{n: 1}, opts: serbench.Options{Codecs: []string{"encoding/json", "msgpack", "cbor"}}, want: serbench.Lossy},
		{name: "panicking codec", v: &panicky{N: 1}, opts: serbench.Options{Codecs: []string{}, Extra: []codec.Codec{panickyCodec{}}}, want: serbench.Error},
		{name: "unknown codec", v: order, opts: serbench.Options{Codecs: []string{"nope"}}, wantErr: `unknown codec "nope"`},
		{name: "unknown required", v: order, opts: serbench.Options{Codecs: []string{"gob"}, Require: []string{"cbor"}}, wantErr: `Require names "cbor"`},
		{name: "negative live heap", v: order, opts: serbench.Options{Codecs: []string{"gob"}, LiveHeap: -1}, wantErr: `invalid Options.LiveHeap -1`},
		{name: "nil extra", v: order, opts: serbench.Options{Extra: []codec.Codec{nil}}, wantErr: "nil codec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tc.opts.Fidelity(tc.v)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range f {
				if tc.name == "unexported only" && !strings.Contains(x.Err.Error(), "unexported field") {
					t.Errorf("%s: %v does not say the field is unexported", x.Codec, x.Err)
				}
				if x.Status != tc.want || x.Err == nil {
					t.Errorf("%s: %s (%v), want %s with a reason", x.Codec, x.Status, x.Err, tc.want)
				}
			}
			t.Logf("\n%s", f)
		})
	}
	// Every reflection codec on a chan field: a reason, no panic.
	f, err := serbench.Options{Registry: all.Registry(), Codecs: reflectCodecs}.Fidelity(&withChan{C: make(chan int)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("chan field through every reflection codec:\n%s", f)
}

// fakeTB records what Check logs and whether it failed.
type fakeTB struct {
	testing.TB
	logs, errs []string
	fatal      bool
}

func (f *fakeTB) Helper()                   {}
func (f *fakeTB) Logf(s string, a ...any)   { f.logs = append(f.logs, fmt.Sprintf(s, a...)) }
func (f *fakeTB) Errorf(s string, a ...any) { f.errs = append(f.errs, fmt.Sprintf(s, a...)) }
func (f *fakeTB) Fatal(a ...any)            { f.fatal = true; f.errs = append(f.errs, fmt.Sprint(a...)) }

func TestCheck(t *testing.T) {
	v := &withAny{N: int64(3)}
	// Not required: the loss is logged, Check passes.
	tb := &fakeTB{TB: t}
	serbench.Check(tb, v, serbench.Options{Codecs: []string{"encoding/json", "msgpack"}})
	if len(tb.errs) != 0 || len(tb.logs) != 1 || !strings.Contains(tb.logs[0], "encoding/json  changed") {
		t.Errorf("not required: errors %q, logs %q", tb.errs, tb.logs)
	}
	// Required: Check fails for that codec only.
	tb = &fakeTB{TB: t}
	serbench.Check(tb, v, serbench.Options{Codecs: []string{"encoding/json", "msgpack"}, Require: []string{"encoding/json"}})
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "required codec encoding/json: changed") || !strings.Contains(tb.logs[0], "encoding/json *") {
		t.Errorf("required: errors %q, logs %q", tb.errs, tb.logs)
	}
	// An unusable value or two Options: Fatal.
	for _, args := range [][]serbench.Options{nil, {{}, {}}} {
		tb = &fakeTB{TB: t}
		var val any = order
		if args == nil {
			val = nil
		}
		serbench.Check(tb, val, args...)
		if !tb.fatal {
			t.Errorf("Check(%v, %d options) did not fail", val, len(args))
		}
	}
}

// A type of another package gets the hint in the form init takes from any
// folder: its import path and name.
func TestFidelityInitHintForeignType(t *testing.T) {
	f, err := serbench.Options{Codecs: []string{"protobuf"}}.Fidelity(&url.URL{Scheme: "https", Host: "example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 1 || f[0].Err == nil || !strings.Contains(f[0].Err.Error(), "(serbench init -type net/url.URL -codegen protobuf generates the code for your type)") {
		t.Errorf("protobuf on *url.URL: %v, want the hint with -type net/url.URL", f)
	}
}
