package document

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Format is one way of writing a document of type D: its name as
// `-format` takes it and the function that writes doc to w.
type Format[D any] struct {
	Name  string
	Write func(w io.Writer, doc D) error
}

// Formats is the formats of one document type, in the order `-format`
// documents them, with the package prefix of its errors ("report",
// "hostile", ...). Every writer of a serbench document goes through
// Formats.Write, so that an unknown format is the same error everywhere.
type Formats[D any] struct {
	// Package prefixes errors: "hostile: unknown format ...".
	Package string
	// Document, when set, names the document in errors: "report: unknown
	// fidelity format ...".
	Document string
	List     []Format[D]
}

// Names returns the format names in order.
func (fs Formats[D]) Names() []string {
	names := make([]string, len(fs.List))
	for i, f := range fs.List {
		names[i] = f.Name
	}
	return names
}

// Write writes doc to w in the named format. An unknown format is an
// *UnknownFormatError that lists the valid ones; errors from the writer
// are returned as it gives them.
func (fs Formats[D]) Write(w io.Writer, format string, doc D) error {
	for _, f := range fs.List {
		if f.Name == format {
			return f.Write(w, doc)
		}
	}
	return &UnknownFormatError{Package: fs.Package, Document: fs.Document, Format: format, Valid: fs.Names()}
}

// UnknownFormatError is the error of Formats.Write for a format it does
// not list.
type UnknownFormatError struct {
	Package  string   // the package that writes the document: "report"
	Document string   // the document's name, "" where the package writes one kind
	Format   string   // the format asked for
	Valid    []string // the formats there are, in order
}

func (e *UnknownFormatError) Error() string {
	what := "format"
	if e.Document != "" {
		what = e.Document + " format"
	}
	return fmt.Sprintf("%s: unknown %s %q (valid: %s)", e.Package, what, e.Format, strings.Join(e.Valid, ", "))
}

// WriteJSON writes v to w as JSON indented by indent, one value and a
// newline (json.Encoder's form). Errors are prefixed with pkg: "hostile:
// write json: ...".
func WriteJSON(w io.Writer, pkg, indent string, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: write json: %w", pkg, err)
	}
	return nil
}

// ErrWriter is an io.Writer that passes writes to another until one
// fails, and then fails every later write with that error, so that a
// writer of many Fprintf calls checks once, at the end (Err).
type ErrWriter struct {
	w   io.Writer
	err error
}

// NewErrWriter returns an ErrWriter that writes to w.
func NewErrWriter(w io.Writer) *ErrWriter { return &ErrWriter{w: w} }

// Write writes p to the underlying writer unless an earlier write failed.
func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// Err returns the first write error, or nil.
func (e *ErrWriter) Err() error { return e.err }
