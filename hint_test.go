package serbench_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench"
)

type shipLine struct {
	SKU  string `json:"sku"`
	Unit string `json:"unit"`
}

type shipment struct {
	ID      string     `json:"id"`
	Shipped string     `json:"shipped"`
	Lines   []shipLine `json:"lines"`
}

// Check logs the hints after the round-trip table: a header, then one row
// per field with the protobuf bytes before → after.
func TestCheckHints(t *testing.T) {
	v := &shipment{ID: "s-1", Shipped: "2026-11-23T09:30:12Z"}
	for _, sku := range []string{"a-1", "b-2", "c-3", "d-4"} {
		v.Lines = append(v.Lines, shipLine{SKU: sku, Unit: "kg"})
	}
	tb := &fakeTB{TB: t}
	serbench.Check(tb, v, serbench.Options{Codecs: []string{"encoding/json"}})
	if len(tb.errs) != 0 || len(tb.logs) != 2 {
		t.Fatalf("errors %q, logs %q; want the table and the hints", tb.errs, tb.logs)
	}
	// Bytes: id 5, shipped 22, four lines of 2+(5+4) = 11 → 71; the time as
	// a Timestamp (2+6) saves 14; the unit as an enum (2 bytes, not 4)
	// saves 2 per line. In Avro (56 bytes) the time as a long of
	// microseconds (8 bytes, not 1+20) saves 13, the unit as an enum
	// index (1 byte, not 3) 2 per line.
	want := "schema-tightening hints for *serbench_test.shipment, measured on your sample: " +
		"protobuf bytes (protobuf/derived, dynamicpb) and Avro bytes (avro/derived) of the whole sample before → after changing only that field to the suggested type:\n" +
		"field          Go type  seen                             protobuf                   Avro                   protobuf bytes  Avro bytes\n" +
		".Shipped       string   1 non-empty value, all RFC 3339  google.protobuf.Timestamp  long timestamp-micros  71 → 57 (-20%)  56 → 43 (-23%)\n" +
		".Lines[].Unit  string   1 distinct value in 4            enum Unit                  enum                   71 → 63 (-11%)  56 → 48 (-14%)"
	if tb.logs[1] != want {
		t.Errorf("hints:\n%s\nwant\n%s", tb.logs[1], want)
	}
	if strings.Contains(tb.logs[1], "ns/op") {
		t.Error("Check times nothing, but its hints show ns/op")
	}
}
