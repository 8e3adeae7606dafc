package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/corpus"
)

// TestRunCorpusSourceFidelity runs a user's file with IDs above 2^53 next
// to the toolchain's typed twitter_status: the user's file gets the
// source-fidelity finding and encoding/json is marked lossy on it, while
// the typed corpus is unchanged (ok, no finding).
func TestRunCorpusSourceFidelity(t *testing.T) {
	if _, err := corpus.Toolchain(corpus.Options{}); errors.Is(err, corpus.ErrNoToolchainCorpus) {
		t.Skip(err)
	}
	args := []string{"run", "-corpus", filepath.Join("..", "..", "corpus", "testdata", "tweets.json"),
		"-scenarios", "corpus/tweets,corpus/twitter_status", "-codecs", "encoding/json,msgpack",
		"-benchtime", "1ms", "-count", "1"}

	out, _, err := serbench(t, append(args, "-format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scenarios []struct {
			ID     string
			Source []struct {
				Kind  string
				Count int
				Path  string
			} `json:"source_fidelity"`
		}
		Results []struct {
			Codec, Scenario, Op string
			OK                  bool
			Error               string
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Scenarios {
		switch s.ID {
		case "corpus/tweets":
			if len(s.Source) != 1 || s.Source[0].Kind != corpus.LossBigInteger || s.Source[0].Count != 7 || s.Source[0].Path != `["data"][1]["id"]` {
				t.Errorf("corpus/tweets: source_fidelity %+v", s.Source)
			}
		case "corpus/twitter_status":
			if s.Source != nil {
				t.Errorf("corpus/twitter_status: source_fidelity %+v, want none", s.Source)
			}
		}
	}
	if len(doc.Results) != 8 {
		t.Fatalf("%d results, want 8", len(doc.Results))
	}
	for _, r := range doc.Results {
		wantOK := !(r.Codec == "encoding/json" && r.Scenario == "corpus/tweets")
		if r.OK != wantOK {
			t.Errorf("%s %s %s: ok=%v error=%q", r.Codec, r.Scenario, r.Op, r.OK, r.Error)
		}
		if !wantOK && !strings.Contains(r.Error, "want 1603825917466333185, got float64 1603825917466333184") {
			t.Errorf("%s %s %s: error %q", r.Codec, r.Scenario, r.Op, r.Error)
		}
	}

	table, _, err := serbench(t, append(args, "-format", "table")...)
	if err != nil {
		t.Fatal(err)
	}
	line := "corpus/tweets (*interface {})\nsource fidelity: encoding/json into any loses integer above 2^53 rounded (7×), first [\"data\"][1][\"id\"]: 1849205512907743233 in the file, 1849205512907743232 after decoding\n"
	if !strings.Contains(table, line) {
		t.Errorf("table lacks the source-fidelity line above corpus/tweets:\n%s", table)
	}
	if n := strings.Count(table, "source fidelity:"); n != 1 {
		t.Errorf("%d source-fidelity lines, want 1 (none for the typed corpus)", n)
	}
}

// TestRunCorpusErrors checks that bad -corpus input is a one-line error
// naming the file and, for invalid JSON, where.
func TestRunCorpusErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noJSON := filepath.Join(dir, "nojson")
	if err := os.Mkdir(noJSON, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       []string
	}{
		{"missing", filepath.Join(dir, "missing.json"), []string{"-corpus", "missing.json", "no such file"}},
		{"invalid JSON", write("bad.json", "{\n  \"id\": 12,\n  \"name\": nope\n}"), []string{"-corpus", "bad.json", "invalid JSON at byte offset 25 (line 3, column 12)"}},
		{"empty file", write("empty.json", ""), []string{"-corpus", "empty.json", "empty file"}},
		{"folder without .json", noJSON, []string{"-corpus", "nojson", "no .json files"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := serbench(t, "run", "-corpus", tt.path, "-codecs", "encoding/json", "-scenarios", "ws-message")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}
