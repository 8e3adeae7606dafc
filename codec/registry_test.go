package codec_test

import (
	"strings"
	"testing"
)

// WithAbsent returns a copy that names why a codec is missing where the
// original says the name is unknown, and refuses an ID the registry holds.
func TestWithAbsent(t *testing.T) {
	r := groupFixture(t)
	a, err := r.WithAbsent(map[string]string{"sonic": "not in this set: use the other registry"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Resolve([]string{"json", "sonic"}); err == nil || !strings.Contains(err.Error(), "not in this set") {
		t.Errorf("copy: Resolve(sonic) = %v, want the reason", err)
	}
	if _, err := a.Select([]string{"sonic"}); err == nil || !strings.Contains(err.Error(), "not in this set") {
		t.Errorf("copy: Select(sonic) = %v, want the reason", err)
	}
	if _, err := r.Resolve([]string{"sonic"}); err == nil || !strings.Contains(err.Error(), `unknown codec "sonic"`) {
		t.Errorf("original: Resolve(sonic) = %v, want an unknown codec: WithAbsent changed it", err)
	}
	if len(r.Absences()) != 0 || len(a.Absences()) != 1 || len(a.All()) != len(r.All()) {
		t.Errorf("absences %v (original) and %v (copy), codecs %d and %d", r.Absences(), a.Absences(), len(r.All()), len(a.All()))
	}
	if _, err := r.WithAbsent(map[string]string{"msgpack": "why"}); err == nil || !strings.Contains(err.Error(), `"msgpack"`) {
		t.Errorf("WithAbsent of a held ID: %v, want an error naming it", err)
	}
}
