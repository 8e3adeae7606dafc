package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/derive"
)

// shipmentSource is a text-shaped type as a JSON API might carry it, for
// serbench schema -hints; scratchShipment is the same type here.
const shipmentSource = `package order

type Shipment struct {
	ID      string         ` + "`json:\"id\"`" + `
	Created string         ` + "`json:\"created\"`" + `
	Lines   []ShipmentLine ` + "`json:\"lines\"`" + `
}

type ShipmentLine struct {
	SKU  string ` + "`json:\"sku\"`" + `
	Unit string ` + "`json:\"unit\"`" + `
	Qty  int64  ` + "`json:\"qty\"`" + `
	Mass float64 ` + "`json:\"mass_g\"`" + `
	Note string ` + "`json:\"note\"`" + `
}
`

type scratchShipment struct {
	ID      string            `json:"id"`
	Created string            `json:"created"`
	Lines   []scratchShipLine `json:"lines"`
}

type scratchShipLine struct {
	SKU  string  `json:"sku"`
	Unit string  `json:"unit"`
	Qty  int64   `json:"qty"`
	Mass float64 `json:"mass_g"`
	Note string  `json:"note"`
}

const shipmentJSON = `{"id": "shp-20261123-0042", "created": "2026-11-23T09:30:12.250Z",
 "lines": [
  {"sku": "A-1001", "unit": "piece", "qty": 12, "mass_g": 2400, "note": "fragile, keep upright"},
  {"sku": "A-1002", "unit": "piece", "qty": 3, "mass_g": 150, "note": ""},
  {"sku": "B-2001", "unit": "kg", "qty": 40, "mass_g": 40000, "note": "cold chain"},
  {"sku": "B-2002", "unit": "kg", "qty": 25, "mass_g": 25000, "note": ""},
  {"sku": "C-3001", "unit": "box", "qty": 1, "mass_g": 830, "note": "gift wrap, no invoice"},
  {"sku": "C-3002", "unit": "piece", "qty": 150, "mass_g": 7500, "note": ""}
 ]}`

// serbench schema -hints runs derive.FindHints on the sample inside the
// user's package: the table is the one FindHints gives for the same value
// here; a sample with a member the type lacks is two lines (how many, then
// the member) with status 1.
func TestSchemaHintsInScratchModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a scratch module (-short)")
	}
	dir := scratchModule(t)
	writeText(t, filepath.Join(dir, "shipment.go"), shipmentSource)
	writeText(t, filepath.Join(dir, "shipment.json"), shipmentJSON)
	writeText(t, filepath.Join(dir, "bad.json"), `{"id": "x", "colour": "red"}`)
	goCmd(t, dir, "mod", "tidy")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"schema", "-type", "Shipment", "-hints", "-sample", filepath.Join(dir, "shipment.json"), "-hint-time", "0", dir}); err != nil {
		t.Fatal(err)
	}
	v := &scratchShipment{}
	if err := json.Unmarshal([]byte(shipmentJSON), v); err != nil {
		t.Fatal(err)
	}
	hs, err := derive.FindHints(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 4 || stdout.String() != hs.String()+"\n" {
		t.Errorf("got\n%s\nwant 4 hints:\n%s", stdout.Bytes(), hs)
	}
	stdout.Reset()
	err = run(context.Background(), &stdout, &stderr, []string{"schema", "-type", "Shipment", "-hints", "-sample", filepath.Join(dir, "bad.json"), dir})
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), `schema: Shipment -hints: serbench: `) || !strings.Contains(err.Error(), "1 member that") || !strings.Contains(err.Error(), "bad.json:1:13: /colour") ||
		!strings.HasSuffix(err.Error(), "\n\t(serbench schema -ignore-unknown ignores them)") || strings.Count(err.Error(), "\n") != 2 {
		t.Errorf("bad sample: %v (exit %d), want a line saying how many members the type lacks, one naming the member, and one naming -ignore-unknown", err, exitCode(err))
	}
	// An API response has members the client type leaves out on purpose:
	// -ignore-unknown reads it as encoding/json does.
	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"schema", "-type", "Shipment", "-hints", "-sample", filepath.Join(dir, "bad.json"), "-ignore-unknown", "-hint-time", "0", dir}); err != nil {
		t.Errorf("-ignore-unknown: %v", err)
	} else if strings.Contains(stdout.String(), "colour") || stdout.Len() == 0 {
		t.Errorf("-ignore-unknown printed\n%s\nwant the hints of the sample without its unknown member", stdout.Bytes())
	}
}

func TestSchemaHintsUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schema", "-type", "Order", "-hints"}, "-hints and -sample go together"},
		{[]string{"schema", "-type", "Order", "-sample", "x.json"}, "-hints and -sample go together"},
		{[]string{"schema", "-type", "Order", "-hints", "-sample", "x.json", "-hint-time", "-1s"}, "-hint-time -1s: want 0 or more"},
		{[]string{"schema", "-type", "Order", "-hints", "-sample", "x.json", "-format", "avsc"}, "-hints prints a table, not a schema"},
		{[]string{"schema", "-type", "Order", "-ignore-unknown"}, "-ignore-unknown goes with -hints -sample"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v (exit %d), want exit 2 mentioning %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}
