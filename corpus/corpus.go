// Package corpus turns real JSON documents into serbench scenarios (docs/reference.md, "Scenarios",
// corpus/<name>).
//
// Toolchain loads the seven documents that ship with the Go toolchain under
// $GOROOT/src/encoding/json/internal/jsontest/testdata/*.json.zst and decodes
// each into Go types this package defines from the data (Canada, CitmCatalog,
// GolangSource, UnicodeBlocks, SyntheaBundle, TwitterSearch), so every codec
// works on typed structs as a real service would. The types lose nothing:
// the package's tests check that re-marshalling each decoded value with
// encoding/json gives a document equal to the original as a JSON value
// (member order and white space aside; integers equal exactly, other numbers
// equal as float64, so "16.0" and "16" count as equal).
//
// Files loads a user's own JSON file, or every .json file of a folder. Its
// scenarios hold what the file holds, not what encoding/json into any makes
// of it (which rounds integers above 2^53 to float64), and are judged
// against the file:
//
//   - The value (Scenario.Value, a *any) is built of nil, bool, string,
//     []any, map[string]any and, for numbers, the first Go type that holds
//     the number exactly: an integer (no fraction, no exponent) is an int64,
//     else a uint64, else a float64 if that float64 is exactly the integer;
//     -0 is float64 negative zero. Another number is the nearest float64
//     when that float64, printed with as many significant digits as the
//     file used, gives the file's number back (0.1 and -65.613616999999977
//     are float64s, the second as a program printing 17 digits of a float64
//     wrote it; 1.00000000000000000001 is not). A number none of these
//     holds stays a json.Number, its text. Strings keep their bytes, invalid
//     UTF-8 included. A key given twice keeps its last value, as
//     encoding/json does; a lone surrogate escape (\ud800) becomes U+FFFD,
//     as no UTF-8 string can hold it.
//   - A codec's result (Scenario.Compare) keeps the file when it has the
//     same structure and strings and the same numbers as exact values,
//     whatever their Go type: float64 1 equals the file's 1, int8 3 equals
//     3, but float64 9007199254740992 does not equal 9007199254740993, and
//     a json.Number of the file equals only a json.Number (or integer) of
//     the same value, never a float64. Zeros are equal only with the same
//     sign, so a codec that turns -0 into 0 is lossy. json-v2 and the
//     binary codecs carry a json.Number as a string, so they are lossy there
//     too: the file holds a number no Go number holds. The first difference is a
//     *fidelity.Mismatch whose path is written as `["ids"][0]`.
//   - What encoding/json into any loses (Scenario.Source, one
//     scenario.SourceLoss per kind with a count and the first example, in
//     the constants Loss*): integers above 2^53 it rounds, other numbers
//     the float64 it makes does not hold (too many digits, or too small),
//     numbers beyond float64's range (it refuses the file), keys
//     given twice (it keeps the last), invalid UTF-8 and lone surrogates
//     (it writes U+FFFD). A -0 is not among them: encoding/json keeps it as
//     float64 negative zero.
//
// Both read untrusted bytes through one limit, Options.MaxFileBytes, and
// return errors that name the file.
package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/serbench/serbench/scenario"
)

// DefaultMaxFileBytes is the default of Options.MaxFileBytes: 64 MiB, ten times
// the largest toolchain document (synthea_fhir, about 2 MB).
const DefaultMaxFileBytes int64 = 64 << 20

// ErrNoToolchainCorpus is wrapped by Toolchain when the toolchain's test data
// folder does not exist (a Go installation without sources, say). Callers
// typically warn and go on without the seven corpus scenarios.
var ErrNoToolchainCorpus = errors.New("corpus: Go toolchain JSON test data not found")

// ToolchainSubdir is where the toolchain keeps its JSON test documents,
// relative to GOROOT, up to Go 1.26; EmbedSubdir is where Go 1.27 keeps
// them. ToolchainDir tries both.
const (
	ToolchainSubdir = "src/encoding/json/internal/jsontest/testdata"
	EmbedSubdir     = "src/encoding/json/internal/jsontest/_embed"
)

// Options configures Toolchain and Files. The zero value means defaults.
type Options struct {
	// Dir is the folder holding the toolchain's *.json.zst documents. Empty
	// means GOROOT/ToolchainSubdir, where GOROOT is what `go env GOROOT`
	// prints (the go command found on PATH), or runtime.GOROOT() when that
	// command fails. Files ignores Dir.
	Dir string
	// MaxFileBytes caps the size of one document in bytes, after
	// decompression. Zero means DefaultMaxFileBytes; negative is an error.
	// A larger document is a *LimitError.
	MaxFileBytes int64
	// MaxLines caps the messages of one JSON Lines file (Files). Zero
	// means DefaultMaxLines; negative is an error. More is a
	// *LineLimitError.
	MaxLines int
	// MaxLineBytes caps one line of a JSON Lines file, its newline
	// excluded. Zero means DefaultMaxLineBytes; negative is an error. A
	// longer line is a *LineLimitError.
	MaxLineBytes int
}

// Effective returns o with defaults filled in (MaxFileBytes, MaxLines,
// MaxLineBytes; Dir stays "" for ToolchainDir), or an error naming the
// first field out of range.
func (o Options) Effective() (Options, error) {
	switch {
	case o.MaxFileBytes < 0:
		return o, fmt.Errorf("corpus: invalid MaxFileBytes %d (must be >= 0; 0 means %d)", o.MaxFileBytes, DefaultMaxFileBytes)
	case o.MaxFileBytes == 0:
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	switch {
	case o.MaxLines < 0:
		return o, fmt.Errorf("corpus: invalid MaxLines %d (must be >= 0; 0 means %d)", o.MaxLines, DefaultMaxLines)
	case o.MaxLines == 0:
		o.MaxLines = DefaultMaxLines
	}
	switch {
	case o.MaxLineBytes < 0:
		return o, fmt.Errorf("corpus: invalid MaxLineBytes %d (must be >= 0; 0 means %d)", o.MaxLineBytes, DefaultMaxLineBytes)
	case o.MaxLineBytes == 0:
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	return o, nil
}

// LimitError reports a document larger than Options.MaxFileBytes.
type LimitError struct {
	// File is the path of the document.
	File string
	// Size is the document's size in bytes when known; when it is not known
	// in advance (a compressed stream that does not record its size), Size is
	// the number of bytes read when the limit was crossed and AtLeast is true.
	Size    int64
	AtLeast bool
	// Limit is the MaxFileBytes in effect.
	Limit int64
}

func (e *LimitError) Error() string {
	more := ""
	if e.AtLeast {
		more = "at least "
	}
	return fmt.Sprintf("corpus: %s: size %s%d bytes exceeds MaxFileBytes %d", e.File, more, e.Size, e.Limit)
}

// zstdMaxWindow caps the window a compressed toolchain document may ask the
// decoder to allocate: 64 MiB (the toolchain's files use far less). A larger
// window is an error; the decompressed size is capped by MaxFileBytes.
const zstdMaxWindow = 64 << 20

// toolchainDoc is one toolchain document and the Go type it decodes into.
type toolchainDoc struct {
	name string     // file name without .json.zst; the scenario ID is "corpus/"+name
	doc  string     // what the document is; Toolchain appends its size
	new  func() any // returns a pointer to a new, zero root value
}

// toolchainDocs lists the seven documents in file-name order.
var toolchainDocs = []toolchainDoc{
	{"canada_geometry", "GeoJSON of Canada's border: one Polygon of 480 rings holding 7154 [longitude, latitude] float64 pairs", func() any { return new(Canada) }},
	{"citm_catalog", "an event-ticketing catalog (CITM): id-keyed name maps, 184 events and 243 performances with prices and seat categories; integers only", func() any { return new(CitmCatalog) }},
	{"golang_source", "a tree of the Go source repository's files with change statistics: objects nested 16 levels deep holding names, integers and floats", func() any { return new(GolangSource) }},
	{"string_escaped", "sample text from Unicode blocks, one string per block, every character written as a \\u escape", func() any { return new(UnicodeBlocks) }},
	{"string_unicode", "sample text from Unicode blocks, one string per block, as raw UTF-8", func() any { return new(UnicodeBlocks) }},
	{"synthea_fhir", "a FHIR R4 transaction Bundle of one synthetic patient's record (Synthea): 926 resources of 16 types with codes, references and dates as strings", func() any { return new(SyntheaBundle) }},
	{"twitter_status", "a Twitter API v1.1 search result: 100 statuses (73 of them retweets) with users and entities; mostly Japanese text, int64 IDs, nulls", func() any { return new(TwitterSearch) }},
}

// ToolchainNames returns the names of the toolchain documents, sorted; the
// scenario IDs are "corpus/" + name.
func ToolchainNames() []string {
	names := make([]string, len(toolchainDocs))
	for i, d := range toolchainDocs {
		names[i] = d.name
	}
	return names
}

// ToolchainDir returns the default Options.Dir: GOROOT/ToolchainSubdir, or
// GOROOT/EmbedSubdir where only that exists (Go 1.27), with
// GOROOT found as Options.Dir describes (once per process; the result is
// remembered). It does not check that the folder exists.
func ToolchainDir() string { return toolchainDir() }

var toolchainDir = sync.OnceValue(func() string {
	root := ""
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		root = strings.TrimSpace(string(out))
	}
	if root == "" {
		// Without a go command, the GOROOT this binary was built with:
		// right on the machine that built it, which is where it mostly runs.
		//lint:ignore SA1019 the fallback when `go env GOROOT` cannot run
		root = runtime.GOROOT()
	}
	for _, sub := range []string{ToolchainSubdir, EmbedSubdir} {
		if dir := filepath.Join(root, filepath.FromSlash(sub)); isDir(dir) {
			return dir
		}
	}
	return filepath.Join(root, filepath.FromSlash(ToolchainSubdir))
})

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Toolchain loads the seven toolchain documents and returns them as
// scenarios corpus/canada_geometry ... corpus/twitter_status, sorted by ID,
// each decoded into its Go type (Scenario.Type says which, for example
// "*corpus.Canada"). Everything is read and decoded before Toolchain returns.
//
// If the folder does not exist, Toolchain returns nil and an error wrapping
// ErrNoToolchainCorpus. A missing, corrupt or oversized file, or a document
// with a field or value the types do not expect (decoding uses
// DisallowUnknownFields), is an error naming the file.
func Toolchain(opts Options) ([]scenario.Scenario, error) {
	opts, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	limit := opts.MaxFileBytes
	dir := opts.Dir
	if dir == "" {
		dir = ToolchainDir()
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoToolchainCorpus, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrNoToolchainCorpus, dir)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow))
	if err != nil {
		return nil, fmt.Errorf("corpus: zstd: %w", err)
	}
	defer dec.Close()
	out := make([]scenario.Scenario, 0, len(toolchainDocs))
	for _, d := range toolchainDocs {
		path := filepath.Join(dir, d.name+".json.zst")
		data, err := readZstd(dec, path, limit)
		if err != nil {
			return nil, err
		}
		v := d.new()
		if err := decodeStrict(data, v); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", path, err)
		}
		doc := fmt.Sprintf("%s; %d bytes of JSON (Go toolchain test data)", d.doc, len(data))
		out = append(out, newScenario(d.name, doc, v))
	}
	return out, nil
}

// readZstd reads and decompresses the zstd file at path, refusing more than
// limit decompressed bytes.
func readZstd(dec *zstd.Decoder, path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	var h zstd.Header
	head := make([]byte, zstd.HeaderMaxSize)
	n, _ := io.ReadFull(f, head)
	if err := h.Decode(head[:n]); err == nil && h.HasFCS && h.FrameContentSize > uint64(limit) {
		return nil, &LimitError{File: path, Size: int64(h.FrameContentSize), Limit: limit}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if err := dec.Reset(f); err != nil {
		return nil, fmt.Errorf("corpus: %s: zstd: %w", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(dec, limit+1))
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: zstd: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, &LimitError{File: path, Size: int64(len(data)), AtLeast: true, Limit: limit}
	}
	return data, nil
}

// decodeStrict decodes one JSON document into v, refusing unknown fields and
// trailing data. Errors give the byte offset when encoding/json reports one.
func decodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return withOffset(err, d.InputOffset())
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("data after the JSON value at byte offset %d", d.InputOffset())
	}
	return nil
}

// withOffset adds the byte offset to a decoding error that does not say it.
func withOffset(err error, at int64) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte offset %d: %w", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Errorf("at byte offset %d: %w", te.Offset, err)
	}
	return fmt.Errorf("near byte offset %d: %w", at, err)
}

// newScenario returns the scenario corpus/name whose Value always returns v.
func newScenario(name, doc string, v any) scenario.Scenario {
	return scenario.Scenario{
		ID:    "corpus/" + name,
		Type:  fmt.Sprintf("%T", v),
		Doc:   doc,
		Value: func() any { return v },
	}
}
