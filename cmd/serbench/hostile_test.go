package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/hostile"
)

func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	stdout, _, err := serbench(t, "hostile", "-codecs", "wire,cbor", "-scenarios", "ws-message", "-flips", "8", "-depth", "1000", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc hostile.Document
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(stdout)); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	if doc.Schema != hostile.Schema || len(doc.Rows) != 2 || doc.Env.Go == "" || doc.Seed != 1 {
		t.Fatalf("document %+v, want schema %s, env, seed 1 and 2 rows", doc, hostile.Schema)
	}
	for _, r := range doc.Rows {
		// Every input was tried and answered; the valid encoding at least
		// was accepted, its truncations rejected.
		if r.Error != "" || r.Inputs != r.Rejected+r.Accepted+r.Panics+r.Killed+r.Skipped || r.Accepted < 1 || r.Rejected < 10 {
			t.Errorf("row %+v: want every input counted once, some accepted and rejected", r)
		}
	}
	if doc.Rows[0].Codec != "wire" || doc.Rows[0].Panics+doc.Rows[0].Killed != 0 {
		t.Errorf("wire row %+v, want no panics or kills (its decoder is bounded by construction)", doc.Rows[0])
	}
}

// Every bad flag value is a usage error (exit 2).
func TestHostileErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-stack-limit", "-1"}, "stack limit"},
		{[]string{"-flips", "-1"}, "-flips -1"},
		{[]string{"-codecs", "nope"}, `"nope"`},
		{[]string{"-scenarios", "corpus/citm_catalog"}, `"corpus/citm_catalog"`},
		{[]string{"-format", "html"}, `"html"`},
		{[]string{"-time-limit", "0s"}, "-time-limit 0s"},
		{[]string{"-mem-limit", "1"}, "memory limit"},
		{[]string{"-depth", "0"}, "-depth 0"},
		{[]string{"-max-kills", "0"}, "-max-kills 0"},
	} {
		_, _, err := serbench(t, append([]string{"hostile"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || exitCode(err) != 2 {
			t.Errorf("%v: got %v (exit %d), want an error containing %s (exit 2)", tt.args, err, exitCode(err), tt.want)
		}
	}
}

// TestHostileAnnot: -scenarios takes the opt-in annotation workloads, by ID
// or by group, as run does.
func TestHostileAnnot(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	stdout, _, err := serbench(t, "hostile", "-codecs", "wire", "-scenarios", "annot/coo@small", "-flips", "4", "-depth", "100", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc hostile.Document
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Rows) != 1 || doc.Rows[0].Scenario != "annot/coo@small" || doc.Rows[0].Error != "" || doc.Rows[0].Accepted < 1 || doc.Rows[0].Panics+doc.Rows[0].Killed != 0 {
		t.Fatalf("rows %+v, want one clean annot/coo@small row", doc.Rows)
	}
}
