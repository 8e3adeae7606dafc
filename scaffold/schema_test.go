package scaffold

import (
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/derive"
)

// twoAny holds interface values in two places, one of them twice (the
// message of a type is derived once).
type twoAny struct {
	Extra  map[string]any `json:"extra"`
	Inner  *anyHolder     `json:"inner"`
	Others []anyHolder    `json:"others"`
}

type anyHolder struct {
	Payload any `json:"payload"`
}

// derive's refusal of several fields gets a last line with every -skip
// path in one flag value; one field's refusal is left as it is.
func TestWithAllSkips(t *testing.T) {
	_, err := derive.Derive(reflect.TypeFor[twoAny](), derive.Proto)
	if err == nil {
		t.Fatal("twoAny derives; want its interface fields refused")
	}
	got := withAllSkips(err.Error())
	lines := strings.Split(got, "\n")
	if want := "(all of them: -skip Extra,Inner.Payload, with any paths -skip already gave)"; lines[len(lines)-1] != want || !strings.HasPrefix(got, err.Error()+"\n") {
		t.Errorf("withAllSkips =\n%s\nwant derive's error, then %q", got, want)
	}
	_, err = derive.Derive(reflect.TypeFor[anyHolder](), derive.Proto)
	if err == nil || withAllSkips(err.Error()) != err.Error() {
		t.Errorf("one refused field: withAllSkips(%v) = %q, want it unchanged", err, withAllSkips(err.Error()))
	}
}
