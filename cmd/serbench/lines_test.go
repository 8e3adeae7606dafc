package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
)

// A JSON Lines file is a message corpus in run: per-message figures, the
// distribution of sizes on every marshal cell, the table's size line, a
// document that validates, and a fidelity error naming the first line a
// codec loses (encoding/json into any rounds the integer of line 3).
func TestRunJSONLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "capture.ndjson")
	text := "{\"id\":1,\"text\":\"hello\"}\n{\"id\":2,\"text\":\"a longer message, to spread the sizes\"}\n{\"id\":9007199254740993}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-corpus", path, "-scenarios", "corpus/capture", "-codecs", "encoding/json,msgpack",
		"-benchtime", "1ms", "-count", "1", "-compress", "s2"}
	out, _, err := serbench(t, append(args, "-format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(out)); err != nil {
		t.Errorf("run document: %v", err)
	}
	var doc struct {
		Results []struct {
			Codec, Op, Error string
			OK               bool
			Stream           *struct {
				Messages   int
				P50        int   `json:"size_p50"`
				Max        int   `json:"size_max"`
				TotalBytes int64 `json:"total_bytes"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		if r.Stream == nil || r.Stream.Messages != 3 || r.Stream.Max < r.Stream.P50 || r.Stream.TotalBytes < int64(r.Stream.Max) {
			t.Errorf("%s %s: stream %+v", r.Codec, r.Op, r.Stream)
		}
		if r.Codec == "encoding/json" && r.Op == "marshal" {
			if r.OK || !strings.HasPrefix(r.Error, "line 3: ") {
				t.Errorf("encoding/json marshal: ok %v, error %q; want the loss of line 3", r.OK, r.Error)
			}
			if r.Stream != nil && r.Stream.TotalBytes != int64(len(text)-3) {
				t.Errorf("encoding/json stream bytes %d, want the file's %d (without newlines)", r.Stream.TotalBytes, len(text)-3)
			}
		}
		if r.Codec == "msgpack" && !r.OK {
			t.Errorf("msgpack %s: %s", r.Op, r.Error)
		}
	}
	table, _, err := serbench(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	// One line says what the figures are per, once; then one line of
	// sizes per marshal and compress cell.
	if strings.Count(table, "message corpus: 3 messages; ns/op, B/op and size are per message") != 1 || !strings.Contains(table, "\n  msgpack marshal: ") {
		t.Errorf("table lacks the message corpus line once and msgpack's sizes:\n%s", table)
	}
}
