package bench_test

import (
	"context"
	"errors"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/results"
)

// TestSession checks that a Session gives the cells Matrix gives, in the
// same order, each with one sample per Round.
func TestSession(t *testing.T) {
	codecs, scenarios := []codec.Codec{stdjson.New(), lossy(), memmove.New()}, seeds(t, "ws-message", "annotation")
	s, err := bench.NewSession(context.Background(), codecs, scenarios, fast)
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 4
	for range rounds {
		if err := s.Round(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got := s.Results()
	want, err := bench.Matrix(context.Background(), codecs, scenarios, fast)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	timed := 0
	derived := built(got)
	for i, r := range got {
		w := want[i]
		if r.Codec != w.Codec || r.Scenario != w.Scenario || r.Op != w.Op || r.OK != w.OK || r.Error != w.Error {
			t.Errorf("result %d: %s %s %s ok=%v %q, want %s %s %s ok=%v %q", i, r.Codec, r.Scenario, r.Op, r.OK, r.Error, w.Codec, w.Scenario, w.Op, w.OK, w.Error)
		}
		if r.Timed() {
			timed++
			want, pairs := rounds, rounds
			if r.Codec == results.DefaultBaseline {
				want, pairs = rounds*(1+paired(got, r.Scenario, r.Op)), 0
			} else if !hasBaseline(got, r.Scenario, r.Op) {
				pairs = 0
			}
			if len(r.Samples) != want || len(r.PairRatios) != pairs {
				t.Errorf("%s %s %s: %d samples and %d pairs, want %d and %d", r.Codec, r.Scenario, r.Op, len(r.Samples), len(r.PairRatios), want, pairs)
			}
		}
		if d := derived[i]; r.Codec == "encoding/json" && r.OK && d.Speedup != 1 {
			t.Errorf("baseline %s %s: speed-up %v", r.Scenario, r.Op, d.Speedup)
		}
	}
	if timed != s.Timed() || timed == 0 {
		t.Errorf("%d timed results, Session.Timed() = %d", timed, s.Timed())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Round(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Round on a cancelled context: %v", err)
	}
}

// hasBaseline reports whether the baseline timed scenario and op.
func hasBaseline(rs []results.Row, scenario, op string) bool {
	for _, r := range rs {
		if r.Codec == results.DefaultBaseline && r.Scenario == scenario && r.Op == op && r.Timed() {
			return true
		}
	}
	return false
}
