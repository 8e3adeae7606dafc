package document

import "testing"

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{"": "", "sonic": "sonic", "=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@x": "'@x", "\tx": "'\tx", "a=b": "a=b"} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}
