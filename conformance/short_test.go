package conformance

import "testing"

func TestShort(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"plain", 10, "plain"},
		{"a\nb\xff", 20, `a\x0ab\xff`},
		{"abcdef", 3, "abc…"},
		{"aé", 2, "a…"}, // never cuts inside a rune
	} {
		if got := short(tc.in, tc.n); got != tc.want {
			t.Errorf("short(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
