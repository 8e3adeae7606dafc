package avro

import (
	"strings"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/scenario"
)

// TestSchemasParse checks that every schema file parses, and that asking
// for a missing one is an error naming it. (codec/all's tests round-trip
// every seed through them.)
func TestSchemasParse(t *testing.T) {
	for typ, name := range SchemaFiles {
		text, err := Schema(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := avro.Parse(text); err != nil {
			t.Errorf("%s (%s): %v", name, typ, err)
		}
	}
	if _, err := Schema("nope.avsc"); err == nil || !strings.Contains(err.Error(), "nope.avsc") {
		t.Errorf("missing schema: err = %v", err)
	}
}

// TestUint64Refused checks the reason Bind gives for user-event: the
// library itself refuses the uint64 fields against a long.
func TestUint64Refused(t *testing.T) {
	text, err := Schema("user-event.avsc")
	if err != nil {
		t.Fatal(err)
	}
	s, err := avro.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	_, err = api.Marshal(s, scenario.NewUserEvent())
	if err == nil || !strings.Contains(err.Error(), "uint64") {
		t.Fatalf("hamba/avro encoded a uint64 as a long (err %v): Bind need not refuse user-event any more", err)
	}
	t.Log(err)
}
