package corpus_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/klauspost/compress/zstd"

	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/scenario"
)

// toolchain loads the toolchain corpus once for all tests, or skips the
// test when the toolchain has no JSON test data.
var toolchain = sync.OnceValues(func() ([]scenario.Scenario, error) {
	return corpus.Toolchain(corpus.Options{})
})

func loadToolchain(t testing.TB) []scenario.Scenario {
	t.Helper()
	ss, err := toolchain()
	if errors.Is(err, corpus.ErrNoToolchainCorpus) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// original returns the uncompressed toolchain document name.
func original(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus.ToolchainDir(), name+".json.zst"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out, err := d.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestToolchainScenarios(t *testing.T) {
	ss := loadToolchain(t)
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
		v1, v2 := s.Value(), s.Value()
		if v1 == nil || v1 != v2 {
			t.Errorf("%s: Value returned %p then %p, want the same non-nil pointer", s.ID, v1, v2)
		}
		if got := fmt.Sprintf("%T", v1); got != s.Type || !strings.HasPrefix(got, "*corpus.") {
			t.Errorf("%s: Type %q, value %s", s.ID, s.Type, got)
		}
		if s.Doc == "" {
			t.Errorf("%s: empty Doc", s.ID)
		}
	}
	want := []string{"corpus/canada_geometry", "corpus/citm_catalog", "corpus/golang_source",
		"corpus/string_escaped", "corpus/string_unicode", "corpus/synthea_fhir", "corpus/twitter_status"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("IDs %v, want %v", ids, want)
	}
}

// TestToolchainTypesLoseNothing checks that re-marshalling each typed value
// with encoding/json gives the original document, compared as JSON values:
// object member order and insignificant white space are ignored, strings
// must be equal, integers must be equal exactly (compared as decimals, so
// IDs above 2^53 count), and numbers with a fraction or exponent must be
// equal as float64 (encoding/json prints the shortest form that reads back
// as the same float64, "16.0" as "16").
func TestToolchainTypesLoseNothing(t *testing.T) {
	for _, s := range loadToolchain(t) {
		t.Run(s.ID, func(t *testing.T) {
			name := strings.TrimPrefix(s.ID, "corpus/")
			got, err := json.Marshal(s.Value())
			if err != nil {
				t.Fatal(err)
			}
			if err := jsonEqual(original(t, name), got); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// jsonEqual reports where two JSON documents differ as values.
func jsonEqual(want, got []byte) error {
	w, err := decodeNumbers(want)
	if err != nil {
		return fmt.Errorf("original: %w", err)
	}
	g, err := decodeNumbers(got)
	if err != nil {
		return fmt.Errorf("re-marshalled: %w", err)
	}
	return valueEqual(w, g, "$")
}

func decodeNumbers(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func valueEqual(w, g any, path string) error {
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", path, g)
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := gm[k]
			if !ok {
				return fmt.Errorf("%s.%s: missing from the re-marshalled document", path, k)
			}
			if err := valueEqual(w[k], gv, path+"."+k); err != nil {
				return err
			}
		}
		for k := range gm {
			if _, ok := w[k]; !ok {
				return fmt.Errorf("%s.%s: not in the original document", path, k)
			}
		}
		return nil
	case []any:
		ga, ok := g.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %T", path, g)
		}
		if len(w) != len(ga) {
			return fmt.Errorf("%s: want %d elements, got %d", path, len(w), len(ga))
		}
		for i := range w {
			if err := valueEqual(w[i], ga[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		gn, ok := g.(json.Number)
		if !ok {
			return fmt.Errorf("%s: want number %s, got %T %v", path, w, g, g)
		}
		if numberEqual(string(w), string(gn)) {
			return nil
		}
		return fmt.Errorf("%s: want %s, got %s", path, w, gn)
	default: // string, bool, nil
		if w != g {
			return fmt.Errorf("%s: want %#v, got %#v", path, w, g)
		}
		return nil
	}
}

func numberEqual(w, g string) bool {
	if w == g {
		return true
	}
	if !strings.ContainsAny(w, ".eE") {
		// An integer literal: exact.
		wr, ok1 := new(big.Rat).SetString(w)
		gr, ok2 := new(big.Rat).SetString(g)
		return ok1 && ok2 && wr.Cmp(gr) == 0
	}
	wf, err1 := json.Number(w).Float64()
	gf, err2 := json.Number(g).Float64()
	return err1 == nil && err2 == nil && wf == gf
}

func TestEscapedAndUnicodeStringsAreEqual(t *testing.T) {
	byID := map[string]any{}
	for _, s := range loadToolchain(t) {
		byID[s.ID] = s.Value()
	}
	e, u := byID["corpus/string_escaped"].(*corpus.UnicodeBlocks), byID["corpus/string_unicode"].(*corpus.UnicodeBlocks)
	if *e != *u {
		t.Error("string_escaped and string_unicode decode to different values")
	}
	if u.Arabic == "" || u.CJKUnifiedIdeographs == "" {
		t.Error("empty strings")
	}
}

func TestToolchainMissingFolder(t *testing.T) {
	ss, err := corpus.Toolchain(corpus.Options{Dir: filepath.Join(t.TempDir(), "nope")})
	if !errors.Is(err, corpus.ErrNoToolchainCorpus) || ss != nil {
		t.Fatalf("got %d scenarios, err %v; want nil and ErrNoToolchainCorpus", len(ss), err)
	}
}

// toolchainCopy copies the toolchain documents into a new folder, replacing
// the ones in replace by the given bytes (written as they are), or leaving
// them out when the bytes are nil.
func toolchainCopy(t *testing.T, replace map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range corpus.ToolchainNames() {
		data, ok := replace[n]
		if ok && data == nil {
			continue
		}
		if !ok {
			var err error
			if data, err = os.ReadFile(filepath.Join(corpus.ToolchainDir(), n+".json.zst")); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, n+".json.zst"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func compress(t *testing.T, data []byte) []byte {
	t.Helper()
	e, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return e.EncodeAll(data, nil)
}

// BenchmarkToolchain measures loading all seven documents: read,
// decompress and decode into the typed values.
func BenchmarkToolchain(b *testing.B) {
	loadToolchain(b)
	opts := corpus.Options{Dir: corpus.ToolchainDir()}
	for b.Loop() {
		if _, err := corpus.Toolchain(opts); err != nil {
			b.Fatal(err)
		}
	}
}

func TestToolchainErrors(t *testing.T) {
	loadToolchain(t)
	canada := original(t, "canada_geometry")
	extra := append([]byte(`{"bbox":[1,2,3,4],`), canada[1:]...)
	tests := []struct {
		name    string
		replace map[string][]byte
		opts    corpus.Options
		want    []string // substrings of the error
	}{
		{"missing file", map[string][]byte{"golang_source": nil}, corpus.Options{},
			[]string{"golang_source.json.zst", "no such file"}},
		{"corrupt zstd", map[string][]byte{"citm_catalog": []byte("not zstd at all")}, corpus.Options{},
			[]string{"citm_catalog.json.zst", "zstd"}},
		{"unknown field", map[string][]byte{"canada_geometry": compress(t, extra)}, corpus.Options{},
			[]string{"canada_geometry.json.zst", `unknown field "bbox"`}},
		{"wrong type", map[string][]byte{"canada_geometry": compress(t, []byte(`{"type":1}`))}, corpus.Options{},
			[]string{"canada_geometry.json.zst", "byte offset 9", "cannot unmarshal number"}},
		{"trailing data", map[string][]byte{"canada_geometry": compress(t, []byte(`{"type":"x"} {}`))}, corpus.Options{},
			[]string{"canada_geometry.json.zst", "data after the JSON value"}},
		{"over the limit", nil, corpus.Options{MaxFileBytes: 300000},
			[]string{"citm_catalog.json.zst", "size 1727204 bytes exceeds MaxFileBytes 300000"}},
		{"negative limit", nil, corpus.Options{MaxFileBytes: -1}, []string{"invalid MaxFileBytes -1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Dir = toolchainCopy(t, tt.replace)
			ss, err := corpus.Toolchain(opts)
			if err == nil || ss != nil {
				t.Fatalf("got %d scenarios and error %v", len(ss), err)
			}
			if errors.Is(err, corpus.ErrNoToolchainCorpus) {
				t.Fatalf("error %v wraps ErrNoToolchainCorpus", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestToolchainLimitError(t *testing.T) {
	loadToolchain(t)
	_, err := corpus.Toolchain(corpus.Options{MaxFileBytes: 20000})
	var le *corpus.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %v is not a *LimitError", err)
	}
	// canada_geometry is the first document and 270403 bytes long; its
	// zstd frame records that size.
	if filepath.Base(le.File) != "canada_geometry.json.zst" || le.Size != 270403 || le.AtLeast || le.Limit != 20000 {
		t.Errorf("got %+v", *le)
	}
}

// TestToolchainLimitUnknownSize checks the limit on a zstd stream whose
// frame does not record its decompressed size.
func TestToolchainLimitUnknownSize(t *testing.T) {
	loadToolchain(t)
	var buf bytes.Buffer
	e, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Write(original(t, "canada_geometry")); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	dir := toolchainCopy(t, map[string][]byte{"canada_geometry": buf.Bytes()})
	_, err = corpus.Toolchain(corpus.Options{Dir: dir, MaxFileBytes: 20000})
	var le *corpus.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %v is not a *LimitError", err)
	}
	if filepath.Base(le.File) != "canada_geometry.json.zst" || le.Size != 20001 || !le.AtLeast || le.Limit != 20000 {
		t.Errorf("got %+v", *le)
	}
	if want := "size at least 20001 bytes exceeds MaxFileBytes 20000"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
}

// writeFiles creates a folder holding the named files.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"b.json":    `{"x": [1, 2.5, "s", null, true]}`,
		"a.json":    `[]`,
		"notes.txt": `not JSON, ignored`,
	})
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	ss, err := corpus.Files(dir, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 || ss[0].ID != "corpus/a" || ss[1].ID != "corpus/b" {
		t.Fatalf("got %+v", ss)
	}
	for _, s := range ss {
		if s.Type != "*interface {}" || s.Value() != s.Value() || s.Doc == "" {
			t.Errorf("%s: Type %q, Doc %q, Value %p then %p", s.ID, s.Type, s.Doc, s.Value(), s.Value())
		}
	}
	want := map[string]any{"x": []any{1.0, 2.5, "s", nil, true}}
	if got := *ss[1].Value().(*any); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}

	one, err := corpus.Files(filepath.Join(dir, "b.json"), corpus.Options{})
	if err != nil || len(one) != 1 || one[0].ID != "corpus/b" {
		t.Fatalf("one file: %+v, %v", one, err)
	}
}

func TestFilesErrors(t *testing.T) {
	empty := writeFiles(t, map[string]string{"readme.txt": "no JSON here"})
	bad := writeFiles(t, map[string]string{"ok.json": `{}`, "bad.json": `{"a": 1,, "b": 2}`})
	lines := writeFiles(t, map[string]string{"lines.json": "[\n  1,\n  2,\n  tru\n]\n"})
	blank := writeFiles(t, map[string]string{"blank.json": "  \n"})
	two := writeFiles(t, map[string]string{"two.json": `{"a": 1} {"b": 2}`})
	big := writeFiles(t, map[string]string{"big.json": `"` + strings.Repeat("x", 100) + `"`})
	dangling := writeFiles(t, nil)
	if err := os.Symlink(filepath.Join(dangling, "nowhere"), filepath.Join(dangling, "gone.json")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		opts corpus.Options
		want []string
		is   error
	}{
		{"missing path", filepath.Join(empty, "missing.json"), corpus.Options{}, []string{"missing.json"}, os.ErrNotExist},
		{"unreadable file in a folder", dangling, corpus.Options{}, []string{"gone.json"}, os.ErrNotExist},
		{"folder without .json", empty, corpus.Options{}, []string{empty, "no .json files"}, nil},
		{"invalid JSON", bad, corpus.Options{}, []string{"bad.json", "invalid JSON at byte offset 8 (line 1, column 9)"}, nil},
		{"invalid JSON on line 4", lines, corpus.Options{}, []string{"lines.json", "invalid JSON at byte offset 17 (line 4, column 6)"}, nil},
		{"empty file", blank, corpus.Options{}, []string{"blank.json", "empty file: no JSON value"}, nil},
		{"two documents", two, corpus.Options{}, []string{"two.json", "data after the JSON value at byte offset 8 (line 1, column 9)"}, nil},
		{"over the limit", big, corpus.Options{MaxFileBytes: 50}, []string{"big.json", "size 102 bytes exceeds MaxFileBytes 50"}, nil},
		{"negative limit", big, corpus.Options{MaxFileBytes: -5}, []string{"invalid MaxFileBytes -5"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, err := corpus.Files(tt.path, tt.opts)
			if err == nil || ss != nil {
				t.Fatalf("got %d scenarios and error %v", len(ss), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}

	var se *jsontext.SyntacticError
	if _, err := corpus.Files(bad, corpus.Options{}); !errors.As(err, &se) || se.ByteOffset != 8 {
		t.Errorf("invalid JSON: %v does not wrap a *jsontext.SyntacticError at offset 8", err)
	}
	var le *corpus.LimitError
	if _, err := corpus.Files(big, corpus.Options{MaxFileBytes: 50}); !errors.As(err, &le) || le.Size != 102 || le.Limit != 50 {
		t.Errorf("over the limit: got %v", err)
	}
}

// TestFilesUnreadable checks a file the process may not read; root may read
// anything, so the test is skipped for root.
func TestFilesUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: file permissions do not stop reads")
	}
	dir := writeFiles(t, map[string]string{"secret.json": `{}`})
	path := filepath.Join(dir, "secret.json")
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Files(path, corpus.Options{}); !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), "secret.json") {
		t.Errorf("got %v, want a permission error naming secret.json", err)
	}
}

func TestJoinRefusesDuplicateIDs(t *testing.T) {
	a := writeFiles(t, map[string]string{"twitter_status.json": `{}`, "x.json": `1`})
	b := writeFiles(t, map[string]string{"x.json": `2`})
	sa, err := corpus.Files(a, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := corpus.Files(b, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Join(sa, sb); err == nil || !strings.Contains(err.Error(), `duplicate scenario ID "corpus/x"`) {
		t.Errorf("Join(a, b): %v", err)
	}
	if j, err := corpus.Join(sa); err != nil || len(j) != 2 {
		t.Errorf("Join(a): %d, %v", len(j), err)
	}
	if ss, err := toolchain(); err == nil {
		if _, err := corpus.Join(ss, sa); err == nil || !strings.Contains(err.Error(), `"corpus/twitter_status"`) {
			t.Errorf("Join(toolchain, a): %v", err)
		}
	}
}
