package golden

import "testing"

func TestFirstDiff(t *testing.T) {
	for _, tt := range []struct{ want, got, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "first difference at line 2:\n  want \"b\\n\"\n  got  \"B\\n\"\n(6 bytes expected, 6 got)"},
		{"a\n", "a\nb\n", "first difference at line 2:\n  want end of file\n  got  \"b\\n\"\n(2 bytes expected, 4 got)"},
		{"a\nb", "a\nb\n", "first difference at line 2:\n  want \"b\"\n  got  \"b\\n\"\n(3 bytes expected, 4 got)"},
	} {
		if got := FirstDiff([]byte(tt.want), []byte(tt.got)); got != tt.diff {
			t.Errorf("FirstDiff(%q, %q) =\n%s\nwant\n%s", tt.want, tt.got, got, tt.diff)
		}
	}
}
