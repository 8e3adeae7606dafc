package corpus_test

import (
	"encoding/json"
	"testing"

	"github.com/serbench/serbench/corpus"
)

// FuzzFHIRUnions checks the hand-written decoders of the FHIR union fields:
// no panic on any input, and whatever decodes re-marshals to JSON that
// decodes and re-marshals to the same bytes. (Comparing values instead would
// trip on omitempty, which drops an empty list the input spelled out.)
func FuzzFHIRUnions(f *testing.F) {
	for _, s := range []string{
		`{"name":"Clinic","type":[{"text":"x"}],"total":{"value":1.5,"currency":"USD"}}`,
		`{"name":[{"family":"A","given":["B"]}],"type":{"coding":[{"system":"s","code":"c"}]},"total":[{"category":{"text":"t"}}]}`,
		`{"name":null,"type":[],"total":[]}`,
		`{"name":5}`,
	} {
		f.Add([]byte(s))
	}
	type unions struct {
		Name  *corpus.FHIRName  `json:"name,omitempty"`
		Type  *corpus.FHIRTypes `json:"type,omitempty"`
		Total *corpus.FHIRTotal `json:"total,omitempty"`
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v unions
		if json.Unmarshal(data, &v) != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %+v: %v", v, err)
		}
		var w unions
		if err := json.Unmarshal(out, &w); err != nil {
			t.Fatalf("unmarshal %s: %v", out, err)
		}
		again, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("marshal %+v: %v", w, err)
		}
		if string(again) != string(out) {
			t.Fatalf("%s -> %s -> %s", data, out, again)
		}
	})
}
