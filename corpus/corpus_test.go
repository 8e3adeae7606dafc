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
