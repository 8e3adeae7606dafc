package probe_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/gob"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/msgpack"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/probe"
)

// TestMain also serves as the child process of the Isolator tests: the
// Isolator starts this test binary in probe.ChildRole.
func TestMain(m *testing.M) {
	serve := func(spec string) error { return probe.Child(os.Stdout, spec, all.Registry().Lookup) }
	os.Exit(childproc.RunTests(m, map[string]childproc.Role{probe.ChildRole: serve}))
}

func TestCatalog(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range probe.Catalog() {
		t.Run(p.ID, func(t *testing.T) {
			if seen[p.ID] {
				t.Fatalf("duplicate ID")
			}
			seen[p.ID] = true
			if p.Group == "" || p.Doc == "" || p.New == nil {
				t.Fatalf("incomplete probe: %+v", p.Info())
			}
			a, b := p.New(), p.New()
			if a == b {
				t.Error("New returned the same pointer twice")
			}
			cmp := p.Compare
			if cmp == nil {
				cmp = fidelity.Diff
			}
			if err := cmp(a, b); err != nil {
				t.Errorf("two values of the probe differ: %v", err)
			}
			if p.Seed != nil {
				if !strings.Contains(p.Seed.Field, " .") {
					t.Errorf("Seed.Field %q is not \"SCENARIO .FIELD\"", p.Seed.Field)
				}
				if err := cmp(p.Seed.Get(p.Seed.New()), p.Seed.Get(p.Seed.New())); err != nil {
					t.Errorf("two seed values differ: %v", err)
				}
			}
		})
	}
}

// TestCells checks the runner and the comparisons on outcomes the
// libraries document: encoding/json replaces invalid UTF-8 with U+FFFD and
// refuses NaN; MessagePack has a NaN; gob sends no zero values.
func TestCells(t *testing.T) {
	tests := []struct {
		codec     codec.Codec
		probe     string
		status    probe.Status
		path, got string // for Changed
		errHas    string // for Error and NA
	}{
		{stdjson.New(), "int64-extremes", probe.Kept, "", "", ""},
		{stdjson.New(), "uint64-max", probe.Kept, "", "", ""},
		{stdjson.New(), "float-negzero", probe.Kept, "", "", ""},
		{stdjson.New(), "time-nanos", probe.Kept, "", "", ""},
		{stdjson.New(), "string-invalid-utf8", probe.Changed, ".S", "\"a\ufffdb\ufffd\"", ""},
		{stdjson.New(), "float-nan", probe.Error, "", "", "marshal: json: unsupported value: NaN"},
		{stdjson.New(), "time-zone", probe.Changed, ".T", `2026-07-04T12:00:00-04:00 ""`, ""},
		{stdjson.New(), "struct-unexported", probe.Changed, ".private", "0", ""},
		{stdjson.New(), "omitempty-empty", probe.Changed, ".S", "nil", ""},
		{stdjson.New(), "omitempty-pointer", probe.Kept, "", "", ""},
		{stdjson.New(), "any-int", probe.Changed, ".V", "9.007199254740992e+15 of type float64", ""},
		{stdjson.New(), "map-struct-keys", probe.Error, "", "", "json: unsupported "}, // type (legacy engine) or value (v2 engine)
		{msgpack.New(), "float-nan", probe.Kept, "", "", ""},
		{gob.New(), "float-negzero", probe.Changed, ".F", "0", ""},
		{gob.New(), "pointer-zero", probe.Changed, ".I", "nil", ""},
		// Through a seed scenario's field: protobuf's generated code refuses
		// invalid UTF-8 and has no nil/empty distinction for repeated fields.
		{protobuf.New(), "string-invalid-utf8", probe.Error, "", "", "string field contains invalid UTF-8"},
		{protobuf.New(), "slice-empty", probe.Changed, "", "nil", ""},
		{protobuf.New(), "bytes-nil", probe.NA, "", "", "protobuf: not supported: no message for *probe.byteSlice"},
		{memmove.New(), "string-nul", probe.NA, "", "", "a reference row, not a codec"},
	}
	for _, tt := range tests {
		t.Run(tt.codec.Info().ID+"/"+tt.probe, func(t *testing.T) {
			p, ok := probe.Lookup(tt.probe)
			if !ok {
				t.Fatalf("no probe %q", tt.probe)
			}
			c := probe.RunCell(tt.codec, p)
			wantVia := tt.codec.Info().Kind == codec.Codegen && tt.status != probe.NA
			if c.Status != tt.status || c.Path != tt.path || c.Got != tt.got || !strings.Contains(c.Error, tt.errHas) || (c.Via != "") != wantVia {
				t.Errorf("cell = %+v, want status %s, path %q, got %q, error containing %q", c, tt.status, tt.path, tt.got, tt.errHas)
			}
		})
	}
}

// fake is a codec whose Binding does what its fields say.
type fake struct {
	bindErr error
	marshal func(v any) ([]byte, error)
}

func (f fake) Info() codec.Info { return codec.Info{ID: "fake", Format: "JSON"} }
func (f fake) Bind(any) (codec.Binding, error) {
	if f.bindErr != nil {
		return nil, f.bindErr
	}
	return f, nil
}
func (f fake) Marshal(v any) ([]byte, error)      { return f.marshal(v) }
func (f fake) Unmarshal(data []byte) (any, error) { return nil, errors.New("not reached") }

func TestRunGuards(t *testing.T) {
	p, _ := probe.Lookup("int64-extremes")
	hang := make(chan struct{})
	defer close(hang)
	tests := []struct {
		name   string
		c      fake
		status probe.Status
		errHas string
	}{
		{"panic", fake{marshal: func(any) ([]byte, error) { panic("boom") }}, probe.Error, "marshal: panic: boom"},
		{"unsupported", fake{bindErr: codec.Unsupported("fake", "no schema")}, probe.NA, "fake: not supported: no schema"},
		{"bind error", fake{bindErr: errors.New("broken")}, probe.Error, "bind: broken"},
		{"hang", fake{marshal: func(any) ([]byte, error) { <-hang; return nil, nil }}, probe.Error, "no answer within 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cells, err := probe.Run(context.Background(), []codec.Codec{tt.c}, []probe.Probe{p}, probe.Options{Timeout: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if len(cells) != 1 || cells[0].Status != tt.status || !strings.Contains(cells[0].Error, tt.errHas) {
				t.Errorf("cells = %+v, want one %s cell with %q", cells, tt.status, tt.errHas)
			}
		})
	}
}

// TestIsolated runs the cycle probe in child processes: encoding/json
// reports the cycle; msgpack recurses until the child's stack limit, which
// kills the child, not the test.
func TestIsolated(t *testing.T) {
	p, _ := probe.Lookup("cycle")
	cells, err := probe.Run(context.Background(), []codec.Codec{stdjson.New(), msgpack.New()}, []probe.Probe{p},
		probe.Options{Isolate: probe.Isolator{}.Cell})
	if err != nil {
		t.Fatal(err)
	}
	if c := cells[0]; c.Status != probe.Error || !strings.Contains(c.Error, "encountered a cycle") {
		t.Errorf("encoding/json: %+v", c)
	}
	if c := cells[1]; c.Status != probe.Error || !strings.Contains(c.Error, "crashed: fatal error: stack overflow") {
		t.Errorf("msgpack: %+v", c)
	}

	// Without an Isolate function the probe is not run at all.
	cells, _ = probe.Run(context.Background(), []codec.Codec{msgpack.New()}, []probe.Probe{p}, probe.Options{})
	if cells[0].Status != probe.NA {
		t.Errorf("without Isolate: %+v", cells[0])
	}
}

func TestSelect(t *testing.T) {
	ps, err := probe.Select(probe.Catalog(), []string{"cycle", "float-nan"})
	if err != nil || len(ps) != 2 || ps[0].ID != "cycle" || ps[1].ID != "float-nan" {
		t.Errorf("Select = %v, %v", ps, err)
	}
	if _, err := probe.Select(probe.Catalog(), []string{"nope"}); err == nil || !strings.Contains(err.Error(), `unknown probe "nope" (valid: `) {
		t.Errorf("unknown probe: %v", err)
	}
}

// WriteCatalog writes one line per probe, its ID first.
func TestWriteCatalog(t *testing.T) {
	ps := probe.Catalog()
	var buf bytes.Buffer
	if err := probe.WriteCatalog(&buf, ps); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(ps) {
		t.Fatalf("%d lines for %d probes", len(lines), len(ps))
	}
	for i, l := range lines {
		if f := strings.Fields(l); len(f) < 2 || f[0] != ps[i].ID || f[1] != strings.Fields(ps[i].Group)[0] {
			t.Errorf("line %d %q: want probe %s of group %s", i, l, ps[i].ID, ps[i].Group)
		}
	}
}
