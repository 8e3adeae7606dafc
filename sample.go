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
// at fault: `serbench: order.json:4:12: at /items/0/price: ...`. Members
// that T has no field for are all listed in one *UnknownMembersError,
// each with its line, column and JSON Pointer; FromJSONWith can ignore
// them instead, as encoding/json does. A missing file, an empty one
// (nothing but white space), one over MaxSampleBytes and a path that is
// not a regular file (a FIFO, a device: refused before reading) are errors
// too.
func FromJSON[T any](path string) (*T, error) {
	v, _, err := FromJSONWith[T](path, SampleOptions{})
	return v, err
}

// SampleOptions changes how FromJSONWith reads a sample. The zero value
// reads as FromJSON does.
type SampleOptions struct {
	// IgnoreUnknown drops the object members that T has no field for, as
	// encoding/json does, instead of failing with an
	// *UnknownMembersError; FromJSONWith returns the members it dropped,
	// so that a test can say how many (a real API response usually holds
	// members a client type leaves out).
	IgnoreUnknown bool
}

// MaxUnknownNames caps the distinct unknown member names FromJSONWith
// looks for: 1000. Members of the elements of one array count once (the
// name "sku" in every element of /lines is one name). A sample with more
// is an error wrapping ErrTooManyUnknown.
const MaxUnknownNames = 1000

// ErrTooManyUnknown is wrapped by FromJSONWith's error for a sample with
// more than MaxUnknownNames distinct unknown member names.
var ErrTooManyUnknown = errors.New("serbench: sample has more than MaxUnknownNames unknown member names")

// UnknownMember is an object member of a sample that the Go type has no
// field for.
type UnknownMember struct {
	// Pointer is the member's JSON Pointer (RFC 6901), such as
	// "/lines/0/sku".
	Pointer string
	// Line and Column locate the member's name in the file, from 1 (the
	// column counts bytes).
	Line, Column int
}

// FromJSONWith reads the JSON file at path into a new T as FromJSON does,
// with opts. With opts.IgnoreUnknown, the members T has no field for are
// dropped and returned in document order (none: a nil slice); otherwise
// they are an *UnknownMembersError that lists every one. Other errors are
// FromJSON's.
//
//	order, ignored, err := serbench.FromJSONWith[Order]("testdata/response.json",
//		serbench.SampleOptions{IgnoreUnknown: true})
func FromJSONWith[T any](path string, opts SampleOptions) (*T, []UnknownMember, error) {
	f, err := regfile.Open(path, true)
	if err != nil {
		return nil, nil, fmt.Errorf("serbench: sample: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSampleBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("serbench: sample %s: %w", path, err)
	}
	if len(data) > MaxSampleBytes {
		return nil, nil, fmt.Errorf("%w (%d bytes): %s", ErrSampleTooLarge, MaxSampleBytes, path)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, fmt.Errorf("serbench: sample %s is empty (want one JSON value for a %T)", path, (*T)(nil))
	}
	// Every other problem first, at its place in the file: unknown
	// members are looked for in a file that otherwise decodes.
	v := new(T)
	if err := json.Unmarshal(data, v, json.RejectUnknownMembers(false), json.MatchCaseInsensitiveNames(true)); err != nil {
		return nil, nil, sampleError(path, data, err)
	}
	unknown, err := unknownMembers[T](data)
	if err != nil {
		return nil, nil, fmt.Errorf("serbench: sample %s: %w", path, err)
	}
	if len(unknown) > 0 && !opts.IgnoreUnknown {
		return nil, nil, &UnknownMembersError{Path: path, Type: fmt.Sprintf("%T", v), Members: unknown}
	}
	return v, unknown, nil
}

// unknownMembers returns the members of data, a JSON value that decodes
// into a T when unknown members are allowed, that T has no field for.
// The decoder names the first one only, so each round strips the members
// found so far and decodes again; a name found in one element of an array
// is stripped from every element (they have one Go type), so the rounds
// are the distinct names, at most MaxUnknownNames.
func unknownMembers[T any](data []byte) ([]UnknownMember, error) {
	known := map[string]bool{} // memberKey of each unknown name
	var found []UnknownMember
	stripped := data
	for round := 0; ; round++ {
		err := json.Unmarshal(stripped, new(T), json.RejectUnknownMembers(true), json.MatchCaseInsensitiveNames(true))
		if err == nil {
			return found, nil
		}
		var sem *json.SemanticError
		if !errors.As(err, &sem) || !errors.Is(sem.Err, json.ErrUnknownName) {
			return nil, fmt.Errorf("after removing %d unknown members: %w", len(found), err)
		}
		if round == MaxUnknownNames {
			return nil, fmt.Errorf("%w (%d)", ErrTooManyUnknown, MaxUnknownNames)
		}
		n := len(found)
		if stripped, found, err = stripMembers(data, known, string(sem.JSONPointer)); err != nil {
			return nil, err
		}
		if len(found) <= n {
			return nil, fmt.Errorf("unknown member %s not found in the file", sem.JSONPointer)
		}
	}
}

// stripMembers re-encodes data without the members whose memberKey is in
// known, or whose pointer is next (whose key it then adds to known), and
// returns the members it left out.
func stripMembers(data []byte, known map[string]bool, next string) ([]byte, []UnknownMember, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	var found []UnknownMember
	var pos lineCounter
	for {
		kind := dec.PeekKind()
		if kind == 0 {
			break
		}
		depth := dec.StackDepth()
		if k, n := dec.StackIndex(depth); depth > 0 && k == '{' && n%2 == 0 && kind == '"' {
			name, err := dec.ReadValue()
			if err != nil {
				return nil, nil, err
			}
			ptr := string(dec.StackPointer())
			key := memberKey(dec, ptr)
			if ptr == next {
				known[key] = true
			}
			if known[key] {
				line, col := pos.at(data, dec.InputOffset()-int64(len(name)))
				found = append(found, UnknownMember{Pointer: ptr, Line: line, Column: col})
				if err := dec.SkipValue(); err != nil {
					return nil, nil, err
				}
				continue
			}
			if err := enc.WriteValue(name); err != nil {
				return nil, nil, err
			}
			continue
		}
		var err error
		switch kind {
		case '{', '}', '[', ']':
			var tok jsontext.Token
			if tok, err = dec.ReadToken(); err == nil {
				err = enc.WriteToken(tok)
			}
		default:
			var val jsontext.Value
			if val, err = dec.ReadValue(); err == nil {
				err = enc.WriteValue(val)
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, nil, fmt.Errorf("re-reading the sample: %v", err)
	}
	return out.Bytes(), found, nil
}

// memberKey is ptr, the pointer of the member just read, with each array
// index replaced by "~*" (which no escaped pointer token contains): the
// members of one name in every element of an array share it.
func memberKey(dec *jsontext.Decoder, ptr string) string {
	var b strings.Builder
	level := 0
	for tok := range jsontext.Pointer(ptr).Tokens() {
		level++
		b.WriteByte('/')
		if k, _ := dec.StackIndex(level); k == '[' {
			b.WriteString("~*")
			continue
		}
		b.WriteString(string(jsontext.Pointer("").AppendToken(tok))[1:])
	}
	return b.String()
}

// UnknownMembersError is the error of FromJSON (and of FromJSONWith
// without IgnoreUnknown) for a sample with members that the Go type has no
// field for: all of them, in document order.
type UnknownMembersError struct {
	// Path is the file.
	Path string
	// Type is the Go type read into, as %T prints it ("*main.Order").
	Type string
	// Members are the unknown members, at least one.
	Members []UnknownMember
}

// maxListed is how many members UnknownMembersError.Error lists.
const maxListed = 100

// Error lists the members, one a line after a summary line:
//
//	serbench: order.json: 2 members that *main.Order has no field for (...):
//		order.json:3:3: /discount
//		order.json:9:7: /lines/0/sku
//
// at most 100 of them, then how many more.
func (e *UnknownMembersError) Error() string {
	var b strings.Builder
	what := "members"
	if len(e.Members) == 1 {
		what = "member"
	}
	fmt.Fprintf(&b, "serbench: %s: %d %s that %s has no field for (serbench.FromJSONWith with SampleOptions{IgnoreUnknown: true} ignores them, as encoding/json does):",
		e.Path, len(e.Members), what, e.Type)
	for i, m := range e.Members {
		if i == maxListed {
			fmt.Fprintf(&b, "\n\t... and %d more", len(e.Members)-maxListed)
			break
		}
		fmt.Fprintf(&b, "\n\t%s:%d:%d: %s", e.Path, m.Line, m.Column, m.Pointer)
	}
	return b.String()
}

// Is makes errors.Is(err, json.ErrUnknownName) true, as for the decoder's
// own error.
func (e *UnknownMembersError) Is(target error) bool { return target == json.ErrUnknownName }

// sampleError is the *SampleError for err, the decoder's error on data
// read from path.
func sampleError(path string, data []byte, err error) *SampleError {
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
	return e
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

// lineCounter gives lineCol for increasing offsets in one pass over the
// data.
type lineCounter struct {
	off       int64 // bytes counted
	line      int   // newlines before off
	lineStart int64 // offset just after the last newline before off
}

// at returns the 1-based line and column (in bytes) of offset off, no
// smaller than the last offset asked.
func (c *lineCounter) at(data []byte, off int64) (line, col int) {
	off = min(off, int64(len(data)))
	for ; c.off < off; c.off++ {
		if data[c.off] == '\n' {
			c.line++
			c.lineStart = c.off + 1
		}
	}
	return c.line + 1, int(off-c.lineStart) + 1
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
