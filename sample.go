package serbench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
// file, an empty one (nothing but white space) and one over MaxSampleBytes
// are errors too.
func FromJSON[T any](path string) (*T, error) {
	f, err := os.Open(path)
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
	var (
		sem *json.SemanticError
		syn *jsontext.SyntacticError
		off int64 = -1
		ptr jsontext.Pointer
	)
	switch {
	case errors.As(err, &sem):
		off, ptr = sem.ByteOffset, sem.JSONPointer
	case errors.As(err, &syn):
		off, ptr = syn.ByteOffset, syn.JSONPointer
	}
	if off < 0 {
		return nil, fmt.Errorf("serbench: sample %s into %T: %w", path, v, err)
	}
	line, col := lineCol(data, off)
	at := ""
	switch {
	case ptr != "":
		at = " at " + string(ptr) + ":"
	case sem != nil:
		at = " at the top-level value:"
	}
	return nil, fmt.Errorf("serbench: %s:%d:%d:%s %w", path, line, col, at, err)
}

// lineCol returns the 1-based line and column (in bytes) of offset off.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(off, int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
