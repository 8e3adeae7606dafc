package derive_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/fidelity"
)

// Meta is embedded untagged in Account: its fields are flattened.
type Meta struct {
	Labels map[string]string `json:"labels"`
	Notes  any               `json:"notes"`
}

// Account is a library's type: an interface{} field and a pointer to a
// slice, neither of which the formats can take.
type Account struct {
	Meta
	ID         string         `json:"id"`
	Extensions map[string]any `json:"ext"`
	Aliases    *[]string      `json:"aliases"`
	hidden     func()         //lint:ignore U1000 an unexported field is what the test leaves out
}

type Profile struct {
	Name     string     `json:"name"`
	Account  Account    `json:"account"`
	Previous []*Account `json:"previous"`
}

var profileSkip = []string{"Account.Extensions", "account.aliases", ".Account.Notes", "Previous[].hidden"}

func TestSkipDerive(t *testing.T) {
	typ := reflect.TypeFor[Profile]()
	for _, f := range derive.Formats {
		t.Run(string(f), func(t *testing.T) {
			if _, err := derive.Derive(typ, f); err == nil {
				t.Fatal("Profile derives without Skip; want the interface, *[]string and func fields refused")
			} else if !strings.Contains(err.Error(), `Skip: []string{"Account.Extensions"}`) {
				t.Errorf("the refusal does not advise Options.Skip with the field's path:\n%v", err)
			}
			s, err := derive.Options{Skip: profileSkip}.Derive(typ, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"ext", "aliases", "notes", "hidden"} {
				if strings.Contains(s.Text, `"`+name+`"`) || strings.Contains(s.Text, " "+name+":") || strings.Contains(s.Text, " "+name+" =") {
					t.Errorf("the %s schema still has the field %s:\n%s", f, name, s.Text)
				}
			}
			if !strings.Contains(s.Text, "Left out by Options.Skip: .Account.Meta.Notes, .Account.Extensions, .Account.Aliases, .Account.hidden.") {
				t.Errorf("the %s schema does not say what Skip left out:\n%s", f, s.Text)
			}
			var left []string
			for _, l := range s.Losses {
				if strings.HasPrefix(l.Lost, "left out by Options.Skip") {
					left = append(left, l.Path)
				}
			}
			// Account's fields are left out of its one message, met first
			// at .Account.
			want := []string{".Account.Meta.Notes", ".Account.Extensions", ".Account.Aliases", ".Account.hidden"}
			if !reflect.DeepEqual(left, want) {
				t.Errorf("losses left out = %q, want %q", left, want)
			}
		})
	}
}

func TestSkipErrors(t *testing.T) {
	typ := reflect.TypeFor[Profile]()
	for _, tc := range []struct {
		skip string
		want []string
	}{
		{"Account.Extensionz", []string{`"Account.Extensionz"`, `Account (derive_test.Account) has no field "Extensionz"`, "its fields: Labels (labels), Notes (notes), ID (id), Extensions (ext), Aliases (aliases), hidden"}},
		{"Nope", []string{`"Nope"`, "the root type derive_test.Profile", "Name (name), Account (account), Previous (previous)"}},
		{"Name.First", []string{`"Name.First"`, "Name is a string, which has no fields"}},
		{"", []string{"an empty path"}},
	} {
		t.Run(tc.skip, func(t *testing.T) {
			for _, f := range derive.Formats {
				_, err := derive.Options{Skip: []string{tc.skip}}.Derive(typ, f)
				if err == nil {
					t.Fatalf("%s: no error", f)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: error %q does not contain %q", f, err, w)
					}
				}
			}
			if _, err := (derive.Options{Skip: []string{tc.skip}}).Omit(&Profile{}); err == nil {
				t.Error("Omit: no error")
			}
		})
	}
}

func TestSkipOmit(t *testing.T) {
	aliases := []string{"a"}
	p := &Profile{Name: "n",
		Account:  Account{Meta: Meta{Labels: map[string]string{"k": "v"}, Notes: 1}, ID: "x", Extensions: map[string]any{"e": 1}, Aliases: &aliases},
		Previous: []*Account{{ID: "y", Extensions: map[string]any{"f": 2}}, nil}}
	got, err := derive.Options{Skip: profileSkip}.Omit(p)
	if err != nil {
		t.Fatal(err)
	}
	want := &Profile{Name: "n",
		Account:  Account{Meta: Meta{Labels: map[string]string{"k": "v"}}, ID: "x"},
		Previous: []*Account{{ID: "y"}, nil}}
	if err := fidelity.Diff(want, got); err != nil {
		t.Errorf("Omit: %v", err)
	}
	if p.Account.Extensions == nil || p.Previous[0].Extensions == nil || p.Account.Notes == nil {
		t.Error("Omit changed its argument")
	}
	same, err := derive.Options{}.Omit(p)
	if err != nil || same != any(p) {
		t.Errorf("Omit with no Skip = %p, %v; want its argument", same, err)
	}
}

// TestSkipCodecs round-trips a Profile through the derived codecs with
// the fields left out: every other field comes back.
func TestSkipCodecs(t *testing.T) {
	o := derive.Options{Skip: profileSkip}
	p := &Profile{Name: "n", Account: Account{Meta: Meta{Labels: map[string]string{"k": "v"}, Notes: 1}, ID: "x", Extensions: map[string]any{"e": 1}},
		Previous: []*Account{{ID: "y", Meta: Meta{Labels: map[string]string{"j": "w"}}}}}
	want, err := o.Omit(p)
	if err != nil {
		t.Fatal(err)
	}
	exactDerived(t, o, p, want)
}

// quantity has the shape of a platform's resource quantity: its value in
// unexported fields, written by its own MarshalJSON as "500Mi".
type quantity struct {
	milli  int64  //lint:ignore U1000 the unexported value is what the test is about
	Format string `json:"format"`
}

func (q quantity) MarshalJSON() ([]byte, error) { return []byte(`"500Mi"`), nil }

func (q *quantity) UnmarshalJSON([]byte) error { return nil }

// podSpec holds quantities as a field and as map values.
type podSpec struct {
	Name   string                `json:"name"`
	Limit  *quantity             `json:"limit"`
	Limits []map[string]quantity `json:"limits"`
}

// A struct that marshals itself from unexported fields is refused at the
// field that holds it, every place it is held, with the -skip path of
// that field (not of the unexported field inside, which would leave an
// empty message that decodes every quantity as zero); the advised Skip
// then derives.
func TestSelfMarshalerRefused(t *testing.T) {
	typ := reflect.TypeFor[podSpec]()
	for _, f := range derive.Formats {
		_, err := derive.Derive(typ, f)
		for _, want := range []string{".Limit (derive_test.quantity): derive_test.quantity keeps its value in unexported fields and writes it with its own MarshalJSON", "serbench init -skip Limit,", ".Limits[]{} (derive_test.quantity)", "serbench init -skip Limits,"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: Derive(podSpec) = %v, want it to say %q", f, err, want)
			}
		}
		if err != nil && strings.Contains(err.Error(), "milli") {
			t.Errorf("%s: the error advises the unexported field:\n%v", f, err)
		}
		if _, err := (derive.Options{Skip: []string{"Limit", "Limits"}}).Derive(typ, f); err != nil {
			t.Errorf("%s: with the advised Skip: %v", f, err)
		}
		// A self-marshaling struct whose unexported field is a cache the
		// user leaves out maps as its exported fields.
		if _, err := (derive.Options{Skip: []string{"Cached.memo"}}).Derive(reflect.TypeFor[cachedHolder](), f); err != nil {
			t.Errorf("%s: a self-marshaling struct with its unexported field skipped: %v", f, err)
		}
	}
}

// cachedValue marshals itself, and keeps a cache in an unexported field.
type cachedValue struct {
	Text string `json:"text"`
	memo []byte //lint:ignore U1000 the unexported cache is what the test leaves out
}

func (c cachedValue) MarshalJSON() ([]byte, error) { return []byte(`{"text":""}`), nil }

type cachedHolder struct {
	Cached cachedValue `json:"cached"`
}
