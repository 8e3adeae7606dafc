package pick_test

import (
	"testing"

	"github.com/serbench/serbench/internal/pick"
)

func TestByID(t *testing.T) {
	all := []string{"b", "a", "c"}
	self := func(s string) string { return s }
	got, err := pick.ByID(all, self, []string{"c", "a"}, "letter")
	if err != nil || len(got) != 2 || got[0] != "c" || got[1] != "a" {
		t.Errorf("got %v, %v", got, err)
	}
	_, err = pick.ByID(all, self, []string{"x", "a", "y"}, "letter")
	if err == nil || err.Error() != `unknown letter "x", "y" (valid: a, b, c)` {
		t.Errorf("err = %v", err)
	}
}
