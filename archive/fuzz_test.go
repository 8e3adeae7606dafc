package archive_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/results"
)

// keyPattern is the form of every archive key (KeyOf): five parts of
// [a-z0-9.-] joined by '_', the first the start time. A key names a file in
// the archive folder, so it can never hold a path separator or start
// with a dot.
var keyPattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d{6}Z_[a-z0-9.-]+_[a-z0-9.-]+-[a-z0-9.-]+_[a-z0-9.-]+_[a-z0-9.-]+$`)

// FuzzParse feeds the archive reader arbitrary file contents: it must
// return a run or an error, never panic; a run it accepts has a key that is
// one safe file name and figures Read finds plausible, and writing the run
// again as JSON reads back to the same key.
func FuzzParse(f *testing.F) {
	t0 := time.Date(2026, 11, 24, 8, 30, 5, 0, time.UTC)
	good := runJSONFor(f, t0, "Neoverse-N1 (r3p1)")
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(bytes.Replace(good, []byte(`"go": "go1.26.8",`), []byte(`"go": "go1.26.8", "json_engine": "../../x",`), 1))
	f.Add(bytes.Replace(good, []byte("2026-11-24T08:30:05Z"), []byte("9999-12-31T00:00:00Z"), 1))
	f.Add(bytes.Replace(good, []byte(`"ns_per_op": 100,`), []byte(`"ns_per_op": -1e308,`), 1))
	f.Add([]byte("BenchmarkCodec/codec=x/scenario=y/op=marshal 1 100 ns/op 1e30 allocs/op\n"))
	f.Add([]byte(`{"schema": "serbench/v1", "env": {"go": "go1", "started": "2026-01-01T00:00:00Z"}, "results": [{"codec": "\u001b[2J", "scenario": "s", "op": "marshal", "samples": [1e300, 5e-324]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := archive.Parse(data, "fuzz.json")
		if err != nil {
			if r != nil {
				t.Fatalf("a run and an error: %v", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if !keyPattern.MatchString(r.Key) || strings.ContainsAny(r.Key, `/\`) {
			t.Fatalf("key %q is not a safe file name", r.Key)
		}
		var buf bytes.Buffer
		if err := results.WriteJSON(&buf, r.Doc); err != nil {
			t.Fatalf("an accepted run does not write back: %v", err)
		}
		again, err := archive.Parse(buf.Bytes(), "again.json")
		if err != nil {
			t.Fatalf("an accepted run, written again, is refused: %v", err)
		}
		if again.Doc.Env.Started.Equal(r.Doc.Env.Started) && again.Key != archive.KeyOf(again.Doc, r.Engine) {
			t.Fatalf("key %q, then %q", r.Key, again.Key)
		}
	})
}
