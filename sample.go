package serbench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/serbench/serbench/internal/regfile"
)

// MaxSampleBytes caps the JSON file FromJSON reads: 64 MiB. A larger file
// is an error wrapping ErrSampleTooLarge.
const MaxSampleBytes = 64 << 20

// ErrSampleTooLarge is wrapped by FromJSON's error for a file over
// MaxSampleBytes.
var ErrSampleTooLarge = errors.New("serbench: sample file larger than MaxSampleBytes")

// FromJSON reads the JSON file at path into a new T, for Benchmark and
// Check:
//
//	order, err := serbench.FromJSON[Order]("testdata/order.json")
//
// It decodes with github.com/go-json-experiment/json (the proposed
// encoding/json/v2), which keeps 64-bit integers exact, and is stricter
// than encoding/json so that nothing in the file is silently dropped: a
// member that T has no field for, a duplicate member name, invalid UTF-8
// and data after the value are errors. Member names match field names (or
// json tags) without regard to case, as in encoding/json. Errors name the
// file, the line and column, and the JSON Pointer (RFC 6901) of the value
// at fault: `serbench: order.json:4:12: at /items/0/price: ...`. A missing
// file, an empty one (nothing but white space), one over MaxSampleBytes
// and a path that is not a regular file (a FIFO, a device: refused before
// reading) are errors too.
func FromJSON[T any](path string) (*T, error) {
	f, err := regfile.Open(path, true)
	if err != nil {
		return nil, fmt.Errorf("serbench: sample: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSampleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("serbench: sample %s: %w", path, err)
	}
	if len(data) > MaxSampleBytes {
		return nil, fmt.Errorf("%w (%d bytes): %s", ErrSampleTooLarge, MaxSampleBytes, path)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("serbench: sample %s is empty (want one JSON value for a %T)", path, (*T)(nil))
	}
	v := new(T)
	err = json.Unmarshal(data, v, json.RejectUnknownMembers(true), json.MatchCaseInsensitiveNames(true))
	if err == nil {
		return v, nil
	}
	e := &SampleError{Path: path, Err: err}
	var (
		sem *json.SemanticError
		syn *jsontext.SyntacticError
		off int64 = -1
	)
	switch {
	case errors.As(err, &sem):
		off, e.Pointer = sem.ByteOffset, string(sem.JSONPointer)
		switch {
		case sem.Err != nil:
			e.What = sem.Err.Error()
		case sem.GoType != nil && sem.JSONKind != 0:
			e.What = fmt.Sprintf("JSON %s does not fit Go %s", kindName(sem.JSONKind), sem.GoType)
		}
	case errors.As(err, &syn):
		off, e.Pointer = syn.ByteOffset, string(syn.JSONPointer)
		if syn.Err != nil {
			e.What = syn.Err.Error()
		}
	}
	if off >= 0 {
		e.Line, e.Column = lineCol(data, off)
	}
	return nil, e
}

// SampleError is FromJSON's error for a file that does not decode into
// the type.
type SampleError struct {
	// Path is the file.
	Path string
	// Line and Column locate the problem, from 1 (the column counts
	// bytes); 0 when the decoder did not say.
	Line, Column int
	// Pointer is the JSON Pointer (RFC 6901) of the value at fault, such
	// as "/items/0/price"; "" for the top-level value.
	Pointer string
	// What describes the problem in a few words; "" when only Err does.
	What string
	// Err is the decoder's error.
	Err error
}

// Error returns `serbench: order.json:3:12: at /items: JSON string does
// not fit Go int`.
func (e *SampleError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "serbench: %s", e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	if e.Pointer != "" {
		fmt.Fprintf(&b, ": at %s", e.Pointer)
	}
	if e.What != "" {
		fmt.Fprintf(&b, ": %s", e.What)
	} else {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

// Unwrap returns Err.
func (e *SampleError) Unwrap() error { return e.Err }

// lineCol returns the 1-based line and column (in bytes) of offset off.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(off, int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// kindName names a JSON kind as RFC 8259 does.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return k.String()
}
