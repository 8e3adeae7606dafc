package flatbuffers

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// TestExpansionHonest checks the claim of expansion.go that a buffer in
// which every object is written once is charged at most its own size, on
// every seed scenario and annotation workload, for both codecs.
func TestExpansionHonest(t *testing.T) {
	for _, c := range Codecs() {
		for _, s := range append(scenario.Seeds(), scenario.Annot()...) {
			b, data := Encode(t, c, s.Value())
			if _, err := codec.UnmarshalUntrusted(b, data); err != nil {
				t.Fatalf("%s/%s: %v", c.Info().ID, s.ID, err)
			}
			g := budgetOf(b)
			if g.charged > int64(len(data)) || g.charged == 0 {
				t.Errorf("%s/%s: charged %d for a %d-byte buffer, want (0, %d]", c.Info().ID, s.ID, g.charged, len(data), len(data))
			}
		}
	}
}

// budgetOf returns the budget of b's last Unmarshal.
func budgetOf(b codec.Binding) budget {
	type budgeted interface{ lastBudget() budget }
	return b.(budgeted).lastBudget()
}

func (b *binding[S, T, R]) lastBudget() budget { return b.budget }

// Encode binds c to v's type and returns the Binding and v's encoding; a
// failure ends the test. (Exported for the external tests.)
func Encode(t testing.TB, c codec.Codec, v any) (codec.Binding, []byte) {
	t.Helper()
	b, err := c.Bind(v)
	if err != nil {
		t.Fatal(err)
	}
	n, err := b.(codec.Converter).ToNative(v)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return b, data
}
