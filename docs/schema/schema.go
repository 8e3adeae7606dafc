// Package schema holds the JSON Schema (draft 2020-12) of every JSON document
// serbench writes, and validates a document against the schema its own
// "schema" field names. The files are the published contract
// (docs/reference.md, "JSON documents"); tests validate real output with
// them, and users may validate saved files with any JSON Schema validator.
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/serbench/serbench/document"
)

//go:embed *.schema.json
var files embed.FS

// Files maps each document's "schema" value to its JSON Schema file in this
// folder. A new document kind adds one line here and one file.
var Files = map[string]string{
	document.Run:         "run.schema.json",
	document.Load:        "load.schema.json",
	document.Compare:     "compare.schema.json",
	document.Fidelity:    "fidelity.schema.json",
	document.Conformance: "conformance.schema.json",
	document.Hostile:     "hostile.schema.json",
	document.Merge:       "merge.schema.json",
	document.List:        "list.schema.json",
	document.Evolve:      "evolve.schema.json",
	document.Plan:        "plan.schema.json",
	document.Toolchains:  "toolchains.schema.json",
}

// base is the URL prefix the files' $id values share; "$ref"s between files
// resolve against it.
const base = "https://github.com/serbench/serbench/docs/schema/"

// ErrUnknownSchema is wrapped when a document names no schema, or one that
// Files does not list.
var ErrUnknownSchema = errors.New("schema: unknown document schema")

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

func compile() (map[string]*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		entries, err := files.ReadDir(".")
		if err != nil {
			compileErr = fmt.Errorf("schema: %w", err)
			return
		}
		for _, e := range entries {
			data, err := files.ReadFile(e.Name())
			if err != nil {
				compileErr = fmt.Errorf("schema: %w", err)
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				compileErr = fmt.Errorf("schema: %s: %w", e.Name(), err)
				return
			}
			if err := c.AddResource(base+e.Name(), doc); err != nil {
				compileErr = fmt.Errorf("schema: %s: %w", e.Name(), err)
				return
			}
		}
		compiled = map[string]*jsonschema.Schema{}
		for name, file := range Files {
			s, err := c.Compile(base + file)
			if err != nil {
				compileErr = fmt.Errorf("schema: %s: %w", file, err)
				return
			}
			compiled[name] = s
		}
	})
	return compiled, compileErr
}

// Validate checks doc, one JSON document written by serbench, against the
// JSON Schema of the kind its "schema" field names. It returns nil when doc
// conforms; an error wrapping ErrUnknownSchema when the field is missing or
// names a kind Files does not list; otherwise an error that names every
// violation with its JSON pointer.
func Validate(doc []byte) error {
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return fmt.Errorf("schema: not a JSON object: %w", err)
	}
	schemas, err := compile()
	if err != nil {
		return err
	}
	s, ok := schemas[head.Schema]
	if !ok {
		known := make([]string, 0, len(Files))
		for k := range Files {
			known = append(known, k)
		}
		sort.Strings(known)
		return fmt.Errorf("%w %q (known: %s)", ErrUnknownSchema, head.Schema, strings.Join(known, ", "))
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("schema: %s document: %w", head.Schema, err)
	}
	return nil
}
