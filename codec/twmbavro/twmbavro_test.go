package twmbavro_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec/avro"
	"github.com/serbench/serbench/codec/twmbavro"
	"github.com/serbench/serbench/internal/codectest"
)

// The renamed schemas are the same Avro schemas: each library decodes
// what the other wrote into an equal value. (The bytes differ: hamba/avro
// writes each array and map block with a negative count and its size in
// bytes, which the Avro specification allows so that a reader can skip
// the block; twmb/avro writes plain counts. Map entries follow Go's map
// order in both.)
func TestCrossDecode(t *testing.T) {
	// hamba refuses user-event, twmb fails on its uint64 (codectest.SeedFailures)
	codectest.CrossDecodeSeeds(t, avro.New(), twmbavro.New(), "user-event")
}

func TestGoNames(t *testing.T) {
	type inner struct {
		Zip string `json:"zip_code"`
	}
	type outer struct {
		ID    int64             `json:"id"`
		Addrs []*inner          `json:"addrs"`
		Meta  map[string]*inner `json:"meta,omitempty"`
		Opt   *inner            `json:"opt"`
	}
	schema := `{"type": "record", "name": "O", "fields": [
		{"name": "id", "type": "long"},
		{"name": "addrs", "type": {"type": "array", "items": {"type": "record", "name": "I", "fields": [{"name": "zip_code", "type": "string"}]}}},
		{"name": "meta", "type": {"type": "map", "values": {"type": "record", "name": "J", "fields": [{"name": "zip_code", "type": "string"}]}}},
		{"name": "opt", "type": ["null", {"type": "record", "name": "K", "fields": [{"name": "zip_code", "type": "string"}]}]}]}`
	got, err := twmbavro.GoNames(schema, reflect.TypeFor[*outer]())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name":"ID"`, `"name":"Addrs"`, `"name":"Meta"`, `"name":"Opt"`, `"name":"Zip"`} {
		if !strings.Contains(got, want) {
			t.Errorf("renamed schema %s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "zip_code") {
		t.Errorf("a nested field kept its json name: %s", got)
	}
	for _, tc := range []struct{ schema, want string }{
		{`{"type": "record", "name": "O", "fields": [{"name": "nope", "type": "long"}]}`, `no field of Go twmbavro_test.outer has json tag "nope"`},
		{`{"type": "record", "name": "O", "fields": [{"name": "opt", "type": "I"}]}`, `$.opt: named type "I"`},
		{`{"type": "record", "name": "O", "fields": [{"name": "id", "type": {"type": "array", "items": "long"}}]}`, `$.id: an array against Go int64`},
		{`{`, "schema: "},
	} {
		if _, err := twmbavro.GoNames(tc.schema, reflect.TypeFor[outer]()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("GoNames(%s): err %v, want %q", tc.schema, err, tc.want)
		}
	}
}
