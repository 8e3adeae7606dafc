// Package document names the JSON documents serbench writes: the value of
// each document's top-level "schema" field, in one place. The packages
// that build the documents (report, load, hostile, conformance, evolve,
// plan, probe, toolchain) export these values under their own names
// (results.Schema, load.Schema, ...); docs/schema holds a JSON Schema per
// name, and docs/reference.md, "JSON documents", describes them.
//
// It also holds the one writer shape: each package's Write(w, format,
// doc) goes through a Formats (the format switch, the unknown-format
// error) and writes JSON with WriteJSON; the one table model, Table,
// with its escaping (TerminalText, MarkdownCell, CSVCell); and what the
// HTML pages share (PageStyle, EnvTemplate).
//
// The package imports nothing of serbench, so any package may name a
// document without linking the one that writes it.
package document

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The schema names. A name changes only with an incompatible change of the
// document, and then its version goes up.
const (
	Run         = "serbench/v1"             // serbench run -format json (results.Run)
	Load        = "serbench-load/v1"        // serbench load -format json (load.Report)
	LegacyLoad  = "serbench/v1"             // load documents written before serbench-load/v1: a "transport" list and no "results"
	Merge       = "serbench-merge/v1"       // serbench merge (load.Merged)
	Compare     = "serbench-compare/v1"     // serbench compare -format json
	Fidelity    = "serbench-fidelity/v1"    // serbench fidelity -format json (probe.Document)
	Conformance = "serbench-conformance/v1" // serbench conformance -format json
	Hostile     = "serbench-hostile/v1"     // serbench hostile -format json
	List        = "serbench-list/v1"        // serbench list -format json
	Evolve      = "serbench-evolve/v1"      // serbench evolve -format json
	Plan        = "serbench-plan/v1"        // serbench plan -format json
	Toolchains  = "serbench-toolchains/v1"  // serbench run -go -format json (toolchain.Document)
	// Site names the data of serbench site's page (data.js, site.Data):
	// it ships with the page that reads it, so it is not in Names and has
	// no JSON Schema file of its own.
	Site = "serbench-site/v1"
)

// Names lists every schema name once, LegacyLoad (the same string as Run)
// left out.
var Names = []string{Run, Load, Merge, Compare, Fidelity, Conformance, Hostile, List, Evolve, Plan, Toolchains}

// SchemaOf returns the schema a JSON document names: its top-level
// "schema" string, or LegacyLoad's reading of a Run-named document that
// holds load results ("transport" and no "results"): Load. Input that is
// not a JSON object, or an object without a "schema" string, is an error;
// the name is not checked against Names.
func SchemaOf(data []byte) (string, error) {
	data = bytes.TrimLeft(data, " \t\r\n\ufeff")
	var head struct {
		Schema    *string         `json:"schema"`
		Results   json.RawMessage `json:"results"`
		Transport json.RawMessage `json:"transport"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("document: not a JSON document with a schema string: %w", err)
	}
	if head.Schema == nil {
		return "", fmt.Errorf("document: JSON without a \"schema\" field")
	}
	s := *head.Schema
	if s == LegacyLoad && isEmpty(head.Results) && !isEmpty(head.Transport) {
		return Load, nil
	}
	return s, nil
}

func isEmpty(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte("[]"))
}
