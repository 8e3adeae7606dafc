package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
)

// TestRunAnnot checks the annotation workloads through `serbench run`: the
// group name selects them, every cell round-trips, and the JSON carries
// the element count and the bytes per element the schema allows.
func TestRunAnnot(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	_, _, err := serbench(t, "run", "-codecs", "wire,cbor,protobuf", "-scenarios", "annot/series@small,annot/bbox@small",
		"-benchtime", "1ms", "-count", "1", "-format", "json", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(b); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	var doc struct {
		Scenarios []struct {
			ID       string
			Elements int
		}
		Results []struct {
			Codec, Scenario, Op string
			OK                  bool
			Error               string
			SizeBytes           int     `json:"size_bytes"`
			BytesPerElem        float64 `json:"bytes_per_elem"`
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Scenarios) != 2 || doc.Scenarios[0].Elements != 100 {
		t.Errorf("scenarios %+v, want 2 of 100 elements", doc.Scenarios)
	}
	for _, r := range doc.Results {
		if !r.OK {
			t.Errorf("%s %s %s: %s", r.Codec, r.Scenario, r.Op, r.Error)
		}
		switch {
		case r.Op == "convert" && r.BytesPerElem != 0:
			t.Errorf("%s %s convert: bytes_per_elem %v", r.Codec, r.Scenario, r.BytesPerElem)
		case r.Op != "convert" && r.BytesPerElem != float64(r.SizeBytes)/100:
			t.Errorf("%s %s %s: bytes_per_elem %v for %d bytes of 100 elements", r.Codec, r.Scenario, r.Op, r.BytesPerElem, r.SizeBytes)
		}
	}
}

func TestRunAnnotGroupTable(t *testing.T) {
	stdout, _, err := serbench(t, "run", "-codecs", "wire", "-scenarios", "annot/coo", "-benchtime", "1ms", "-count", "1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"annot/coo@small", "annot/coo@medium", "annot/coo@large", "B/elem", "B/elem: encoded bytes per element"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}
