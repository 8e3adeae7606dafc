package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/results"
)

// TestRunSweepCompress runs a two-point sweep with two compressors on two
// codecs and checks the JSON document against its schema and the sizes and
// ops it should hold.
func TestRunSweepCompress(t *testing.T) {
	stdout, _, err := serbench(t, "run", "-codecs", "wire", "-sizes", "1KiB,16KiB", "-compress", "zstd,lz4",
		"-benchtime", "1ms", "-count", "1", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(stdout)); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	var doc results.Run
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range doc.Scenarios {
		ids = append(ids, s.ID)
		if s.Sweep == nil || s.Sweep.JSONBytes < s.Sweep.TargetBytes-60 || s.Sweep.JSONBytes > s.Sweep.TargetBytes+60 {
			t.Errorf("%s: sweep point %+v", s.ID, s.Sweep)
		}
	}
	if got := strings.Join(ids, ","); got != "sweep/user-event@1KiB,sweep/user-event@16KiB" {
		t.Errorf("scenarios %s", got)
	}
	ops := map[string]int{}
	for _, r := range doc.Results {
		ops[r.Op]++
		if strings.Contains(r.Op, "compress:") && (!r.OK || r.CompressedBytes == 0 || r.BytesOverJSON == 0) {
			t.Errorf("%s %s %s: %+v", r.Codec, r.Scenario, r.Op, r)
		}
	}
	// Two codecs (wire and the baseline) on two sizes.
	for _, op := range []string{"marshal", "unmarshal", "compress:zstd", "decompress:zstd", "compress:lz4", "decompress:lz4"} {
		if ops[op] != 4 {
			t.Errorf("%d %s results, want 4", ops[op], op)
		}
	}
	if len(doc.Compressors) != 2 || doc.Compressors[0].ID != "zstd" {
		t.Errorf("compressors %+v", doc.Compressors)
	}
	if len(doc.Plateaus) != 4 {
		t.Errorf("%d plateaus, want 4 (2 codecs × 2 ops)", len(doc.Plateaus))
	}
}

// A bad -sizes or -compress is a usage error (exit 2).
func TestRunSweepCompressErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-sizes", "12XB"}, `invalid size "12XB"`},
		{[]string{"run", "-sizes", "100B"}, `size "100B" out of range`},
		{[]string{"run", "-compress", "brotli"}, `unknown compressor "brotli"`},
		{[]string{"run", "-compress", ","}, "no compressor"},
	} {
		_, _, err := serbench(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
			t.Errorf("serbench %v: %v (exit %d), want an error with %q (exit 2)", tc.args, err, exitCode(err), tc.want)
		}
	}
}
