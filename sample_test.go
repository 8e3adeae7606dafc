package serbench_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
		{"unknown member", filepath.Join("testdata", "order-unknown.json"), []string{"order-unknown.json:3:3: at /discount: unknown object member name"}, nil},
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
