package serbench_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench"
)

// apiUser is another module's type: an interface{} extension field and a
// pointer to a slice, which its users cannot tag `json:"-"`.
type apiUser struct {
	Login      string         `json:"login"`
	Extensions map[string]any `json:"extensions"`
	Plan       apiPlan        `json:"plan"`
}

type apiPlan struct {
	Name  string `json:"name"`
	Extra any    `json:"extra"`
}

func TestFidelitySkip(t *testing.T) {
	u := &apiUser{Login: "ada", Extensions: map[string]any{"beta": true}, Plan: apiPlan{Name: "pro", Extra: 3}}
	codecs := []string{"encoding/json", "protobuf/derived", "avro/derived"}
	f, err := serbench.Options{Codecs: codecs}.Fidelity(u)
	if err != nil {
		t.Fatal(err)
	}
	if st := statuses(f); st["protobuf/derived"] != serbench.NA || st["avro/derived"] != serbench.NA {
		t.Fatalf("without Skip: %v, want the derived codecs n/a", st)
	}
	if err := f[1].Err.Error(); !strings.Contains(err, `Options{Skip: []string{"Extensions"}}`) || !strings.Contains(err, "init -skip Plan.Extra") {
		t.Errorf("the refusal does not advise Skip for each field:\n%s", err)
	}
	f, err = serbench.Options{Codecs: codecs, Skip: []string{"extensions", "Plan.Extra"}}.Fidelity(u)
	if err != nil {
		t.Fatal(err)
	}
	// The derived codecs give back every field but those left out; the
	// reflection codec keeps them all and is compared with all of them.
	for id, want := range map[string]serbench.Status{"encoding/json": serbench.Lossy, "protobuf/derived": serbench.OK, "avro/derived": serbench.OK} {
		if got := statuses(f)[id]; got != want {
			t.Errorf("%s: %s, want %s (%v)", id, got, want, f)
		}
	}
	if !strings.Contains(f[0].Err.Error(), ".Plan.Extra") {
		t.Errorf("encoding/json: %v, want the int that comes back float64 at .Plan.Extra as the difference", f[0].Err)
	}
	table := f.Losses()
	for _, want := range []string{
		"protobuf/derived  .Extensions  map[string]interface {}  (left out)   left out by Options.Skip",
		"avro/derived      .Plan.Extra  interface {}             (left out)   left out by Options.Skip",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("Losses() does not have %q:\n%s", want, table)
		}
	}
	// A path that names no field: an error naming it and the fields there.
	_, err = serbench.Options{Codecs: codecs, Skip: []string{"Plan.Extras"}}.Fidelity(u)
	if err == nil || !strings.Contains(err.Error(), `"Plan.Extras"`) || !strings.Contains(err.Error(), "its fields: Name (name), Extra (extra)") {
		t.Errorf("bad Skip path: %v", err)
	}
}

// manyLists has the same loss on several fields, and two fields no schema
// takes.
type manyLists struct {
	A, BB, CCC []string
	F          func()
	C          chan int
}

// The table Check logs gives a derived codec's refusal one line per field,
// and the losses table one line per distinct loss.
func TestFidelityTables(t *testing.T) {
	v := &manyLists{A: []string{"a"}}
	f, err := serbench.Options{Codecs: []string{"protobuf/derived"}}.Fidelity(v)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(f.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "protobuf/derived  n/a") || !strings.HasSuffix(lines[1], "derive: proto: serbench_test.manyLists: .F (func()): a func is code, not data (leave it out with serbench.Options{Skip: []string{\"F\"}} and serbench init -skip F, or a json:\"-\" tag on a type of your own)") ||
		!strings.HasPrefix(lines[2], strings.Repeat(" ", 32)+"derive: proto: serbench_test.manyLists: .C (chan int)") {
		t.Errorf("table, want the reason's two fields on two lines:\n%s", f)
	}
	f, err = serbench.Options{Codecs: []string{"protobuf/derived"}, Skip: []string{"F", "C"}}.Fidelity(v)
	if err != nil {
		t.Fatal(err)
	}
	const want = `codec             field         Go type   schema type      lost
protobuf/derived  .F            func()    (left out)       left out by Options.Skip: not in the schema, never encoded, decodes as the zero value
protobuf/derived  .C            chan int  (left out)       left out by Options.Skip: not in the schema, never encoded, decodes as the zero value
protobuf/derived  .A (+2 more)  []string  repeated string  nil and empty are not told apart (both decode as nil)`
	if got := f.Losses(); got != want {
		t.Errorf("Losses():\n%s\nwant\n%s", got, want)
	}
}

// account has the commonest ID type, which an Avro long holds below 2^63.
type account struct {
	ID    uint64 `json:"id"`
	Owner string `json:"owner"`
}

// A type with a uint64 ID gets Avro figures: avro/derived times it
// through its mirror type (marshal, unmarshal and convert); a value of
// 2^63 or more is n/a with the field and the value.
func TestFidelityUint64Avro(t *testing.T) {
	o := serbench.Options{Codecs: []string{"avro/derived"}}
	f, err := o.Fidelity(&account{ID: 1<<63 - 1, Owner: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Status != serbench.OK || len(f[0].Losses) != 1 || f[0].Losses[0].Lost != "values of 2^63 and above are refused at encode time (an Avro long is signed)" {
		t.Errorf("ID below 2^63: %s %v, losses %v; want kept with the loss of .ID listed", f[0].Status, f[0].Err, f[0].Losses)
	}
	f, err = o.Fidelity(&account{ID: 1 << 63})
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Status != serbench.Error || !strings.Contains(f[0].Err.Error(), "avro/derived: .ID: 9223372036854775808 is 2^63 or more") {
		t.Errorf("ID of 2^63: %s %v; want error naming .ID and its value", f[0].Status, f[0].Err)
	}
}
