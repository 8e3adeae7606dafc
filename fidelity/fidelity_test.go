package fidelity_test

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

func TestDiffEqual(t *testing.T) {
	for _, s := range scenario.Seeds() {
		t.Run(s.ID, func(t *testing.T) {
			if err := fidelity.Diff(s.Value(), s.Value()); err != nil {
				t.Fatalf("a value differs from itself: %v", err)
			}
		})
	}
}

func TestDiffFindsPlantedDifference(t *testing.T) {
	tests := []struct {
		name     string
		mutate   func(*scenario.UserEvent)
		wantPath string
	}{
		{"nested slice field", func(e *scenario.UserEvent) { e.Items[2].Price += 0.01 }, ".Items[2].Price"},
		{"nested map value", func(e *scenario.UserEvent) { e.Attributes["device"]["net"] = "5g" }, `.Attributes["device"]["net"]`},
		{"missing map key", func(e *scenario.UserEvent) { delete(e.Attributes["payment"], "3ds") }, `.Attributes["payment"]["3ds"]`},
		{"extra map key", func(e *scenario.UserEvent) { e.Attributes["payment"]["x"] = "y" }, `.Attributes["payment"]["x"]`},
		{"uint64 above 2^53", func(e *scenario.UserEvent) { e.EventID++ }, ".EventID"},
		{"time instant", func(e *scenario.UserEvent) { e.OccurredAt = e.OccurredAt.Add(time.Nanosecond) }, ".OccurredAt"},
		{"slice length", func(e *scenario.UserEvent) { e.Tags = e.Tags[:2] }, ".Tags"},
		{"nil versus empty", func(e *scenario.UserEvent) { e.Flags = []bool{} }, ".Flags"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := scenario.NewUserEvent()
			want.Flags = nil
			got := scenario.NewUserEvent()
			got.Flags = nil
			tt.mutate(got)
			err := fidelity.Diff(want, got)
			var m *fidelity.Mismatch
			if !errors.As(err, &m) {
				t.Fatalf("Diff = %v, want a *Mismatch", err)
			}
			if m.Path != tt.wantPath {
				t.Errorf("path = %q, want %q (%v)", m.Path, tt.wantPath, err)
			}
		})
	}
}

func TestDiffTimeByInstant(t *testing.T) {
	a := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	b := a.In(time.FixedZone("X", 3600))
	if err := fidelity.Diff(&a, &b); err != nil {
		t.Errorf("same instant in another zone: %v", err)
	}
}

func TestDiffDynamicTypes(t *testing.T) {
	var want any = map[string]any{"n": float64(1)}
	var got any = map[string]any{"n": int64(1)}
	err := fidelity.Diff(&want, &got)
	if err == nil {
		t.Fatal("float64 1 and int64 1 compared equal")
	}
	if m := err.(*fidelity.Mismatch); m.Path != `["n"]` {
		t.Errorf("path = %q", m.Path)
	}
}

func TestDiffShowsPointees(t *testing.T) {
	f, tr := false, true
	type T struct{ B *bool }
	err := fidelity.Diff(&T{&f}, &T{&tr})
	if err == nil || err.Error() != "fidelity: .B: want false, got true" {
		t.Errorf("err = %v", err)
	}
	err = fidelity.Diff(&T{&f}, &T{})
	if err == nil || err.Error() != "fidelity: .B: want &false, got nil" {
		t.Errorf("err = %v", err)
	}
}

// Unexported fields are compared, never a panic: codecs drop them, and Diff
// says so, also inside map values where they are not addressable.
func TestDiffUnexported(t *testing.T) {
	type inner struct {
		n  int
		at time.Time
	}
	type outer struct {
		s string
		m map[string]inner
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	want := &outer{s: "x", m: map[string]inner{"k": {n: 1, at: at}}}
	if err := fidelity.Diff(want, &outer{s: "x", m: map[string]inner{"k": {n: 1, at: at}}}); err != nil {
		t.Errorf("equal values: %v", err)
	}
	for _, tc := range []struct {
		got  *outer
		path string
	}{
		{&outer{}, ".s"},
		{&outer{s: "x", m: map[string]inner{"k": {n: 2, at: at}}}, `.m["k"].n`},
	} {
		err := fidelity.Diff(want, tc.got)
		var m *fidelity.Mismatch
		if !errors.As(err, &m) || m.Path != tc.path {
			t.Errorf("Diff = %v, want a mismatch at %s", err, tc.path)
		}
	}
}

func TestDiffStrict(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("no zone database: %v", err)
	}
	at := time.Date(2026, 7, 4, 12, 0, 0, 0, ny)
	negZero := math.Copysign(0, -1)
	type T struct {
		At time.Time
		F  float64
	}
	tests := []struct {
		name      string
		want, got T
		strictErr string // "" when DiffStrict finds them equal
	}{
		{"same", T{at, 1}, T{at, 1}, ""},
		{"NaN", T{at, math.NaN()}, T{at, math.NaN()}, ""},
		{"zone name lost", T{at, 1}, T{at.In(time.FixedZone("", -4*3600)), 1},
			`fidelity: .At: want 2026-07-04T12:00:00-04:00 "America/New_York", got 2026-07-04T12:00:00-04:00 ""`},
		{"offset lost", T{at, 1}, T{at.UTC(), 1},
			`fidelity: .At: want 2026-07-04T12:00:00-04:00 "America/New_York", got 2026-07-04T16:00:00Z "UTC"`},
		{"sign of zero", T{at, negZero}, T{at, 0}, "fidelity: .F: want -0, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := fidelity.Diff(&tt.want, &tt.got); err != nil {
				t.Errorf("Diff: %v (it compares instants and zeros by value)", err)
			}
			err := fidelity.DiffStrict(&tt.want, &tt.got)
			if got := fmt.Sprint(err); (err == nil) != (tt.strictErr == "") || (err != nil && got != tt.strictErr) {
				t.Errorf("DiffStrict = %v, want %q", err, tt.strictErr)
			}
		})
	}
}

func TestDiffUnexportedKinds(t *testing.T) {
	type T struct {
		Public  int
		private string
		keys    map[int]bool
	}
	err := fidelity.Diff(&T{1, "a", map[int]bool{1: true}}, &T{1, "a", map[int]bool{1: false}})
	if err == nil || err.Error() != "fidelity: .keys[1]: want true, got false" {
		t.Errorf("err = %v", err)
	}
	if err := fidelity.Diff(&T{1, "a", nil}, &T{1, "", nil}); err == nil || err.Error() != `fidelity: .private: want "a", got ""` {
		t.Errorf("err = %v", err)
	}
}
