package document_test

import (
	"bytes"
	"testing"

	"github.com/serbench/serbench/document"
)

func tableFixture() document.Table {
	return document.Table{
		Header:  []string{"codec", "ns/op", "note"},
		Numeric: []bool{false, true},
		Rows: [][]string{
			{"a|b_c", "-12.5", "=HYPERLINK(x)"},
			{"é\x1b[2J", "3"},
		},
	}
}

func TestTableAligned(t *testing.T) {
	got := tableFixture().Aligned()
	want := []string{
		"codec     ns/op  note",
		"a|b_c     -12.5  =HYPERLINK(x)",
		`é\x1b[2J      3`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines %q, want %q", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestTableMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name     string
		markdown bool
		want     string
	}{
		{"text", false, "| codec | ns/op | note |\n|---|--:|---|\n| a\\|b\\_c | -12.5 | =HYPERLINK(x) |\n| é\\\\x1b[2J | 3 |  |\n"},
		{"markdown cells", true, "| codec | ns/op | note |\n|---|--:|---|\n| a\\|b_c | -12.5 | =HYPERLINK(x) |\n| é\x1b[2J | 3 |  |\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := tableFixture()
			tb.Markdown = tc.markdown
			var b bytes.Buffer
			if err := tb.WriteMarkdown(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}

func TestTableCSV(t *testing.T) {
	var b bytes.Buffer
	if err := tableFixture().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "codec,ns/op,note\na|b_c,-12.5,'=HYPERLINK(x)\né\x1b[2J,3,\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
