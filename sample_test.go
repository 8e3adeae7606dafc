package serbench_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench"
)

// Order is the six-field struct of the examples and tests.
type Order struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Customer string    `json:"customer"`
	Items    int       `json:"items"`
	Paid     bool      `json:"paid"`
	Total    float64   `json:"total"`
}

func TestFromJSON(t *testing.T) {
	o, err := serbench.FromJSON[Order](filepath.Join("testdata", "order.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := Order{ID: "ord-1842", Created: time.Date(2026, 11, 23, 8, 30, 0, 0, time.UTC), Customer: "Ada Lovelace", Items: 3, Paid: true, Total: 129.95}
	if !o.Created.Equal(want.Created) {
		t.Errorf("Created = %v, want %v", o.Created, want.Created)
	}
	o.Created = want.Created
	if *o != want {
		t.Errorf("FromJSON = %+v, want %+v", *o, want)
	}
}

func TestFromJSONErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path string
		want       []string
		is         error
	}{
		{"missing", filepath.Join(dir, "missing.json"), []string{"missing.json"}, fs.ErrNotExist},
		{"empty", write("empty.json", " \n\t"), []string{"empty.json", "is empty", "*serbench_test.Order"}, nil},
		{"wrong type", filepath.Join("testdata", "order-bad-type.json"), []string{"order-bad-type.json:3:12:", "at /items"}, nil},
		{"unknown member", filepath.Join("testdata", "order-unknown.json"), []string{"1 member that *serbench_test.Order has no field for", "order-unknown.json:3:3: /discount"}, nil},
		{"syntax", write("syntax.json", "{\n  \"id\": \"x\",\n  \"items\": 3,,\n}"), []string{"syntax.json:3:14:", "invalid character"}, nil},
		{"duplicate", write("dup.json", `{"id": "a", "id": "b"}`), []string{"dup.json:1:13:", "duplicate"}, nil},
		{"trailing", write("trailing.json", `{"id": "a"} {}`), []string{"trailing.json:1:13:"}, nil},
		{"not an object", write("array.json", `[1]`), []string{"array.json:1:1: JSON array does not fit Go serbench_test.Order"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := serbench.FromJSON[Order](tc.path)
			if err == nil {
				t.Fatalf("FromJSON = %+v, want an error", v)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
		})
	}
}

// An API response with members the client type leaves out: FromJSON lists
// them all in one error, FromJSONWith ignores them on request and returns
// them.
func TestFromJSONUnknownMembers(t *testing.T) {
	path := filepath.Join("testdata", "response.json")
	want := []serbench.UnknownMember{
		{Pointer: "/lines", Line: 5, Column: 3},
		{Pointer: "/a~1b~0c", Line: 12, Column: 3},
		{Pointer: "/_links", Line: 13, Column: 3},
	}
	_, err := serbench.FromJSON[Order](path)
	var ue *serbench.UnknownMembersError
	if !errors.As(err, &ue) {
		t.Fatalf("FromJSON: %v, want an *UnknownMembersError", err)
	}
	if !slices.Equal(ue.Members, want) || ue.Path != path || ue.Type != "*serbench_test.Order" {
		t.Errorf("error %+v, want members %+v", ue, want)
	}
	for _, w := range []string{"3 members that *serbench_test.Order has no field for", path + ":5:3: /lines\n", path + ":12:3: /a~1b~0c\n", path + ":13:3: /_links"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	o, ignored, err := serbench.FromJSONWith[Order](path, serbench.SampleOptions{IgnoreUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ignored, want) || o.ID != "ord-1842" || o.Items != 3 || o.Total != 129.95 {
		t.Errorf("FromJSONWith = %+v, ignored %+v; want items 3 (matched without case) and %+v", o, ignored, want)
	}

	// In every element of an array, nested: one round finds the name, and
	// every element lists it.
	type line struct {
		SKU string `json:"sku"`
		Qty int    `json:"qty"`
	}
	type withLines struct {
		Lines []line `json:"lines"`
	}
	_, ignored, err = serbench.FromJSONWith[withLines](path, serbench.SampleOptions{IgnoreUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	var ptrs []string
	for _, m := range ignored {
		ptrs = append(ptrs, m.Pointer)
	}
	wantPtrs := []string{"/id", "/created", "/customer", "/lines/0/note", "/ITEMS", "/paid", "/total", "/a~1b~0c", "/_links"}
	if !slices.Equal(ptrs, wantPtrs) {
		t.Errorf("ignored %q, want %q", ptrs, wantPtrs)
	}

	// A known file ignores nothing; another error comes first, at its
	// place in the file.
	if _, ignored, err := serbench.FromJSONWith[Order](filepath.Join("testdata", "order.json"), serbench.SampleOptions{IgnoreUnknown: true}); err != nil || ignored != nil {
		t.Errorf("order.json: ignored %v, err %v", ignored, err)
	}
	_, _, err = serbench.FromJSONWith[Order](filepath.Join("testdata", "order-bad-type.json"), serbench.SampleOptions{IgnoreUnknown: true})
	if err == nil || !strings.Contains(err.Error(), "order-bad-type.json:3:12: at /items") {
		t.Errorf("bad type: %v", err)
	}
}

// Many elements of an array with the same unknown member take one round
// per name, not per element.
func TestFromJSONUnknownInEveryElement(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"lines": [`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"sku": "A-%d", "qty": %d, "extra": [1, 2], "more": {"k": true}}`, i, i)
	}
	b.WriteString("]}\n")
	path := filepath.Join(t.TempDir(), "lines.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	type line struct {
		SKU string `json:"sku"`
		Qty int    `json:"qty"`
	}
	type withLines struct {
		Lines []line `json:"lines"`
	}
	v, ignored, err := serbench.FromJSONWith[withLines](path, serbench.SampleOptions{IgnoreUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ignored) != 10000 || len(v.Lines) != 5000 || v.Lines[4999].Qty != 4999 || ignored[9999].Pointer != "/lines/4999/more" {
		t.Errorf("%d ignored (want 10000), %d lines", len(ignored), len(v.Lines))
	}
	_, err = serbench.FromJSON[withLines](path)
	if err == nil || !strings.Contains(err.Error(), "10000 members") || !strings.Contains(err.Error(), "... and 9900 more") {
		t.Errorf("FromJSON: %.300v", err)
	}
}

// FuzzFromJSONWith: on any file, FromJSONWith never panics, and the two
// modes agree: FromJSON fails with an *UnknownMembersError exactly when
// ignoring succeeds with those members, and succeeds exactly when ignoring
// drops nothing.
func FuzzFromJSONWith(f *testing.F) {
	for _, name := range []string{"order.json", "response.json", "order-unknown.json", "order-bad-type.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"lines": [{"sku": "a", "x": 1}, {"x": 2, "y": [{"z": 3}]}], "ID": "b"}`))
	type line struct {
		SKU string `json:"sku"`
	}
	type doc struct {
		ID    string `json:"id"`
		Lines []line `json:"lines"`
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "sample.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, strictErr := serbench.FromJSON[doc](path)
		_, ignored, err := serbench.FromJSONWith[doc](path, serbench.SampleOptions{IgnoreUnknown: true})
		var ue *serbench.UnknownMembersError
		switch {
		case strictErr == nil:
			if err != nil || len(ignored) != 0 {
				t.Errorf("strict read succeeded; ignoring: %v, %v", ignored, err)
			}
		case errors.As(strictErr, &ue):
			if err != nil || !slices.Equal(ignored, ue.Members) {
				t.Errorf("strict: %v; ignoring: %v, %v", strictErr, ignored, err)
			}
		case err == nil:
			t.Errorf("strict: %v; ignoring succeeded", strictErr)
		}
	})
}
