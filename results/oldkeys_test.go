package results_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/serbench/serbench/results"
)

// A document written before bytes_over_json and modes were named so calls
// them json_ratio and regimes; Read derives them again from its rows, and
// they come out as the document had them. plan-run.json is a run of
// serbench with -compress written under the old names.
func TestReadOldKeys(t *testing.T) {
	const path = "../cmd/serbench/testdata/plan-run.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var old struct {
		Results []struct {
			JSONRatio float64 `json:"json_ratio"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &old); err != nil {
		t.Fatal(err)
	}
	doc, err := results.Read(bytes.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Results) != len(old.Results) {
		t.Fatalf("%d rows read, the document has %d", len(doc.Results), len(old.Results))
	}
	seen := 0
	for i, r := range doc.Results {
		if want := old.Results[i].JSONRatio; r.BytesOverJSON != want {
			t.Errorf("%s %s %s: BytesOverJSON %v, json_ratio %v", r.Codec, r.Scenario, r.Op, r.BytesOverJSON, want)
		}
		if r.BytesOverJSON > 0 {
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("no row has a json_ratio: the check above compared nothing")
	}
}

// A run with a bimodal cell and compression rows, written under the old
// names (json_ratio, regimes) and read back, equals the run written under
// the new ones.
func TestReadOldKeysRoundTrip(t *testing.T) {
	bimodal := append(slices.Repeat([]float64{100}, 6), slices.Repeat([]float64{180}, 6)...)
	run := results.NewRun(results.Inputs{Env: testEnv(), Baseline: results.DefaultBaseline, Count: 12, Rows: []results.Row{
		testRow(results.DefaultBaseline, results.OpMarshal, slices.Repeat([]float64{150}, 12), 200, 0),
		testRow("x", results.OpMarshal, bimodal, 100, 0),
		testRow("x", "compress:zstd", bimodal, 100, 40),
	}})
	if run.Results[1].Modes == nil || run.Results[2].BytesOverJSON != 0.2 {
		t.Fatalf("the run lacks the figures to compare: modes %v, bytes over JSON %v", run.Results[1].Modes, run.Results[2].BytesOverJSON)
	}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, run); err != nil {
		t.Fatal(err)
	}
	renamed := bytes.ReplaceAll(bytes.ReplaceAll(buf.Bytes(), []byte(`"modes"`), []byte(`"regimes"`)), []byte(`"bytes_over_json"`), []byte(`"json_ratio"`))
	if bytes.Equal(renamed, buf.Bytes()) {
		t.Fatal("nothing renamed")
	}
	want, err := results.Read(bytes.NewReader(buf.Bytes()), "new.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := results.Read(bytes.NewReader(renamed), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read under the old names:\n%+v\nunder the new:\n%+v", got.Results, want.Results)
	}
}
