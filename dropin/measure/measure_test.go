package measure_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/dropin/measure"
	"github.com/serbench/serbench/probe"
	"github.com/serbench/serbench/scenario"
)

// fake is encoding/json under another ID, with its marshal output or its
// unmarshal input passed through hooks.
type fake struct {
	id        string
	marshal   func([]byte) []byte
	unmarshal func([]byte) error
}

func (f fake) Info() codec.Info {
	info := stdjson.New().Info()
	info.ID = f.id
	return info
}

func (f fake) Bind(sample any) (codec.Binding, error) {
	b, err := stdjson.New().Bind(sample)
	return fakeBinding{b, f}, err
}

type fakeBinding struct {
	codec.Binding
	f fake
}

func (b fakeBinding) Marshal(v any) ([]byte, error) {
	data, err := b.Binding.Marshal(v)
	if err == nil && b.f.marshal != nil {
		data = b.f.marshal(data)
	}
	return data, err
}

func (b fakeBinding) Unmarshal(data []byte) (any, error) {
	if b.f.unmarshal != nil {
		if err := b.f.unmarshal(data); err != nil {
			return nil, err
		}
	}
	return b.Binding.Unmarshal(data)
}

func TestMeasure(t *testing.T) {
	probes, err := probe.Select(probe.Catalog(), []string{"int64-extremes", "float-negzero", "string-html", "float-nan", "deep-nesting"})
	if err != nil {
		t.Fatal(err)
	}
	opts := measure.Options{Probes: probes, Scenarios: scenario.Seeds()[:2], Repeats: 2}
	refuseNegZero := func(data []byte) error {
		if bytes.Contains(data, []byte("-0")) {
			return errors.New("no -0 here")
		}
		return nil
	}
	for _, tc := range []struct {
		name       string
		c          fake
		class      dropin.Class
		bytes      int
		probes     []dropin.ProbeOutcome
		notCompare []string
	}{
		{"same", fake{id: "same"}, dropin.Yes, 0, nil, []string{"deep-nesting"}},
		{"same bytes, other decoding", fake{id: "negzero", unmarshal: refuseNegZero}, dropin.SameBytes, 0,
			[]dropin.ProbeOutcome{{Probe: "float-negzero", Ref: "kept", Got: "error (unmarshal)"}}, []string{"deep-nesting"}},
		{"other bytes", fake{id: "spaced", marshal: func(b []byte) []byte { return append(b, ' ') }}, dropin.No, 2, nil, []string{"deep-nesting"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := measure.Measure(context.Background(), stdjson.New(), tc.c, opts)
			if err != nil {
				t.Fatal(err)
			}
			if d.Of != "encoding/json" || d.Class != tc.class || len(d.Bytes) != tc.bytes || !reflect.DeepEqual(d.Probes, tc.probes) || !reflect.DeepEqual(d.NotCompared, tc.notCompare) {
				t.Errorf("got %+v, want class %s, %d bytes differences, probes %+v, not compared %v", d, tc.class, tc.bytes, tc.probes, tc.notCompare)
			}
			if d.Compared != len(probes)-len(tc.notCompare) {
				t.Errorf("compared %d probes, want %d", d.Compared, len(probes)-len(tc.notCompare))
			}
		})
	}
}

// TestMeasureSameStatusOtherValue: two codecs that both change a value,
// into different values, do not decode alike.
func TestMeasureSameStatusOtherValue(t *testing.T) {
	probes, err := probe.Select(probe.Catalog(), []string{"any-int"})
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json decodes 2^53+1 in an interface as the float64 2^53;
	// this fake makes it 2^53+2 on the wire it reads.
	bump := fake{id: "bump", unmarshal: nil}
	other := codecFunc{fake: bump, rewrite: func(b []byte) []byte {
		return bytes.Replace(b, []byte("9007199254740993"), []byte("9007199254740995"), 1)
	}}
	d, err := measure.Measure(context.Background(), stdjson.New(), other, measure.Options{Probes: probes, Scenarios: []scenario.Scenario{}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Class != dropin.SameBytes || len(d.Probes) != 1 {
		t.Fatalf("got %+v, want same-bytes with any-int differing", d)
	}
	if d.Probes[0].Ref == d.Probes[0].Got {
		t.Errorf("outcomes in words are equal (%q): the words should show the values", d.Probes[0].Ref)
	}
}

// codecFunc rewrites the bytes its Unmarshal reads.
type codecFunc struct {
	fake
	rewrite func([]byte) []byte
}

func (c codecFunc) Bind(sample any) (codec.Binding, error) {
	b, err := c.fake.Bind(sample)
	return rewriting{b, c.rewrite}, err
}

type rewriting struct {
	codec.Binding
	rewrite func([]byte) []byte
}

func (r rewriting) Unmarshal(data []byte) (any, error) { return r.Binding.Unmarshal(r.rewrite(data)) }

func TestMeasureCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := measure.Measure(ctx, stdjson.New(), fake{id: "x"}, measure.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestErrorStep(t *testing.T) {
	for in, want := range map[string]string{
		"unmarshal: json: bad":             "unmarshal",
		"convert to native: x: y":          "convert to native",
		"crashed: fatal error: stack":      "crashed",
		"no answer within 10s (left over)": "no answer within 10s (left over)",
	} {
		if got := measure.ErrorStep(probe.Cell{Status: probe.Error, Error: in}); got != want {
			t.Errorf("ErrorStep(%q) = %q, want %q", in, got, want)
		}
	}
}

// A round trip that never returns is a difference (an error cell), not a
// hang.
func TestMeasureHangingCodec(t *testing.T) {
	probes, err := probe.Select(probe.Catalog(), []string{"int64-extremes"})
	if err != nil {
		t.Fatal(err)
	}
	block := make(chan struct{}) // never closed: the goroutine stays blocked
	hang := fake{id: "hang", unmarshal: func([]byte) error { <-block; return nil }}
	d, err := measure.Measure(context.Background(), stdjson.New(), hang, measure.Options{Probes: probes, Scenarios: []scenario.Scenario{}, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if d.Class != dropin.SameBytes || len(d.Probes) != 1 || !strings.HasPrefix(d.Probes[0].Got, "error (no answer within") {
		t.Errorf("got %+v, want int64-extremes with no answer", d)
	}
}
