package scenario

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestSweepHitsTarget(t *testing.T) {
	sizes := []int64{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}
	ss, err := Sweep(sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range ss {
		want := "sweep/user-event@" + []string{"1KiB", "4KiB", "16KiB", "64KiB", "256KiB", "1MiB"}[i]
		if s.ID != want {
			t.Errorf("ID %q, want %q", s.ID, want)
		}
		b, err := json.Marshal(s.Value())
		if err != nil {
			t.Fatal(err)
		}
		p := s.Sweep
		if int64(len(b)) != p.JSONBytes {
			t.Errorf("%s: JSONBytes %d, encoding/json gives %d", s.ID, p.JSONBytes, len(b))
		}
		// Within half an order line (lines are at most about 110 bytes of
		// JSON) and 5%.
		d := abs64(p.JSONBytes - sizes[i])
		if d > 60 || float64(d) > 0.05*float64(sizes[i]) {
			t.Errorf("%s: %d bytes, target %d (off by %d)", s.ID, p.JSONBytes, sizes[i], d)
		}
		if p.Elements != len(s.Value().(*UserEvent).Items) {
			t.Errorf("%s: Elements %d, value has %d", s.ID, p.Elements, len(s.Value().(*UserEvent).Items))
		}
	}
}

func TestSweepDeterministic(t *testing.T) {
	a, _, err := SweepValue(16 << 10)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := SweepValue(16 << 10)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls gave different values")
	}
	big, _, err := SweepValue(64 << 10)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Items, big.Items[:len(a.Items)]) {
		t.Error("the 16KiB point's order lines are not a prefix of the 64KiB point's")
	}
	if a.Items[0] == a.Items[1] {
		t.Error("order lines repeat one element")
	}
}

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int64
		err  bool
	}{
		{in: "default", want: DefaultSweepSizes},
		{in: "1KiB, 64KiB,1MiB", want: []int64{1024, 64 << 10, 1 << 20}},
		{in: "2000,4KB,2MB,3000B", want: []int64{2000, 4000, 2000000, 3000}},
		{in: "512B", err: true},
		{in: "65MiB", err: true},
		{in: "99999999999999MiB", err: true},
		{in: "1GiB", err: true},
		{in: "1.5KiB", err: true},
		{in: "-4KiB", err: true},
		{in: "4KiB,4096", err: true},
		{in: " , ", err: true},
	} {
		got, err := ParseSizes(tc.in)
		if (err != nil) != tc.err || (!tc.err && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("ParseSizes(%q) = %v, %v", tc.in, got, err)
		}
	}
	for n, want := range map[int64]string{1024: "1KiB", 1 << 20: "1MiB", 1536 << 10: "1536KiB", 1500: "1500B"} {
		if got := SizeLabel(n); got != want {
			t.Errorf("SizeLabel(%d) = %q, want %q", n, got, want)
		}
	}
}
