package codectest

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// CrossDecodeSeeds checks two codecs of one format on the same schema, on
// every seed scenario but those named in skip: what each encodes
// (codec.Encode) the other decodes (Unmarshal, then codec.Value) into a
// value equal to the seed (Scenario.Diff).
func CrossDecodeSeeds(t *testing.T, a, b codec.Codec, skip ...string) {
	for _, s := range scenario.Seeds() {
		if slices.Contains(skip, s.ID) {
			continue
		}
		t.Run(s.ID, func(t *testing.T) {
			v := s.Value()
			var bs [2]codec.Binding
			for i, c := range []codec.Codec{a, b} {
				var err error
				if bs[i], err = c.Bind(v); err != nil {
					t.Fatal(err)
				}
			}
			for _, pair := range [][2]codec.Binding{{bs[0], bs[1]}, {bs[1], bs[0]}} {
				data, err := codec.Encode(pair[0], v)
				if err != nil {
					t.Fatal(err)
				}
				out, err := pair[1].Unmarshal(data)
				if err != nil {
					t.Fatalf("unmarshal: %v", err)
				}
				got, err := codec.Value(pair[1], out)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Diff(got); err != nil {
					t.Errorf("%T's bytes decoded by %T: %v", pair[0], pair[1], err)
				}
			}
		})
	}
}
