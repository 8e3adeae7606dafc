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

// Each union field decodes the shapes it takes into its branch and names
// both shapes when given another.
func TestFHIRUnionShapes(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(*corpus.FHIRName, *corpus.FHIRTypes, *corpus.FHIRTotal) bool
		err      string
	}{
		{"name array", `[{"family":"A"}]`, func(n *corpus.FHIRName, _ *corpus.FHIRTypes, _ *corpus.FHIRTotal) bool {
			return len(n.Human) == 1 && n.Human[0].Family == "A" && n.Text == ""
		}, ""},
		{"name string", ` "Clinic"`, func(n *corpus.FHIRName, _ *corpus.FHIRTypes, _ *corpus.FHIRTotal) bool {
			return n.Human == nil && n.Text == "Clinic"
		}, ""},
		{"name object", `{}`, nil, `corpus: FHIR name: want an array or a string, got "{}"`},
		{"type object", `{"text":"x"}`, func(_ *corpus.FHIRName, ty *corpus.FHIRTypes, _ *corpus.FHIRTotal) bool {
			return ty.One != nil && ty.One.Text == "x" && ty.Many == nil
		}, ""},
		{"type string", `"x"`, nil, `corpus: FHIR type: want an object or an array, got "\"x\""`},
		{"total array", `[{}]`, func(_ *corpus.FHIRName, _ *corpus.FHIRTypes, to *corpus.FHIRTotal) bool {
			return to.Money == nil && len(to.ByCategory) == 1
		}, ""},
		{"total number", `5`, nil, `corpus: FHIR total: want an object or an array, got "5"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n corpus.FHIRName
			var ty corpus.FHIRTypes
			var to corpus.FHIRTotal
			var err error
			switch tc.name[:4] {
			case "name":
				err = json.Unmarshal([]byte(tc.in), &n)
			case "type":
				err = json.Unmarshal([]byte(tc.in), &ty)
			default:
				err = json.Unmarshal([]byte(tc.in), &to)
			}
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !tc.check(&n, &ty, &to) {
				t.Errorf("error %v; decoded %+v %+v %+v", err, n, ty, to)
			}
		})
	}
}
