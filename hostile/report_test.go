package hostile_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/internal/golden"
)

// testDocument is a fixed Document: one clean row, one with a panic, a bomb
// and a stack overflow, and one that could not run.
func testDocument() *hostile.Document {
	results := []hostile.Result{
		{Input: "valid", Size: 10, Outcome: hostile.Accepted, Alloc: 96, Time: 900 * time.Nanosecond},
		{Input: "truncate/0", Size: 0, Outcome: hostile.Rejected, Message: "EOF", Alloc: 32, Time: 100 * time.Nanosecond},
		{Input: "truncate/5", Size: 5, Outcome: hostile.Panicked, Message: "runtime error: index out of range [7] with length 5", Origin: "example.com/lib.(*Decoder).read", Time: 2 * time.Microsecond},
		{Input: "head/msgpack-array32=2^32-1@1", Size: 14, Outcome: hostile.Accepted, Alloc: 80 << 20, Time: 35 * time.Millisecond},
		{Input: "nest/1000000", Size: 1000001, Outcome: hostile.StackOverflow, Message: "fatal error: stack overflow (exit status 2)", Alloc: -1, Time: 1500 * time.Millisecond},
	}
	clean := []hostile.Result{
		{Input: "valid", Size: 10, Outcome: hostile.Accepted, Alloc: 96, Time: time.Microsecond},
		{Input: "truncate/0", Size: 0, Outcome: hostile.Rejected, Message: "EOF", Alloc: 48, Time: 200 * time.Nanosecond},
	}
	lim, _ := hostile.Limits{}.Effective()
	return &hostile.Document{
		Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), Modules: map[string]string{"example.com/lib": "v1.2.3"}},
		Seed:   1,
		Limits: lim,
		Rlimit: "RLIMIT_DATA=832 MiB",
		Rows: []hostile.Row{
			hostile.Summarize("clean", "sse-event", clean),
			hostile.Summarize("lib", "sse-event", results),
			{Codec: "flatbuffers", Scenario: "corpus/x", Error: "flatbuffers: not supported: no schema"},
		},
	}
}

func TestWriteGolden(t *testing.T) {
	for _, format := range hostile.Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := hostile.Write(&b, format, testDocument()); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "report."+format), b.Bytes())
		})
	}
	if err := hostile.Write(new(bytes.Buffer), "yaml", testDocument()); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("unknown format: got %v, want an error naming it", err)
	}
}

func TestSummarize(t *testing.T) {
	row := testDocument().Rows[1]
	want := hostile.Row{Codec: "lib", Scenario: "sse-event", Inputs: 5, Rejected: 1, Accepted: 2, Panics: 1, Killed: 1, Bombs: 1,
		WorstAllocPerByte: float64(80<<20) / 14, WorstAllocInput: "head/msgpack-array32=2^32-1@1", WorstAlloc: 80 << 20,
		WorstTime: 35 * time.Millisecond, WorstTimeInput: "head/msgpack-array32=2^32-1@1"}
	if row.Inputs != want.Inputs || row.Rejected != want.Rejected || row.Accepted != want.Accepted || row.Panics != want.Panics ||
		row.Killed != want.Killed || row.Bombs != want.Bombs || row.WorstAllocPerByte != want.WorstAllocPerByte ||
		row.WorstAllocInput != want.WorstAllocInput || row.WorstTime != want.WorstTime || row.WorstTimeInput != want.WorstTimeInput {
		t.Errorf("got  %+v\nwant %+v", row, want)
	}
	if len(row.Findings) != 3 || row.Findings[0].Outcome != hostile.Panicked || row.Findings[1].Outcome != hostile.AllocBomb || row.Findings[2].Outcome != hostile.StackOverflow {
		t.Errorf("findings %+v, want a panic, a bomb and a stack overflow in input order", row.Findings)
	}
}

func TestIsBomb(t *testing.T) {
	for _, tt := range []struct {
		alloc int64
		size  int
		want  bool
	}{
		{64_000, 0, false},    // a small input counts as 64 bytes
		{64_001, 0, true},     // more than 1000 x 64
		{100_000, 100, false}, // exactly 1000x is not more
		{100_001, 100, true},
		{64 << 20, 1 << 20, false},
		{64<<20 + 1, 1 << 20, true}, // above 64 MiB whatever the size
	} {
		if got := hostile.IsBomb(tt.alloc, tt.size); got != tt.want {
			t.Errorf("IsBomb(%d, %d) = %v, want %v", tt.alloc, tt.size, got, tt.want)
		}
	}
}
