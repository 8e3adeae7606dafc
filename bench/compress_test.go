package bench_test

import (
	"context"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

func TestCompressCells(t *testing.T) {
	algs, err := algorithms.Select([]string{"gzip", "lz4"})
	if err != nil {
		t.Fatal(err)
	}
	opts := fast
	opts.Compressors = algs
	ss, err := scenario.Select(scenario.Seeds(), []string{"user-event"})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := bench.Matrix(context.Background(), []codec.Codec{stdjson.New(), lossy()}, ss, opts)
	if err != nil {
		t.Fatal(err)
	}
	rs = built(rs)
	var ops []string
	for _, r := range rs {
		if r.Codec == "encoding/json" {
			ops = append(ops, r.Op)
		}
	}
	want := []string{"marshal", "unmarshal", "compress:gzip", "decompress:gzip", "compress:lz4", "decompress:lz4"}
	if len(ops) != len(want) {
		t.Fatalf("encoding/json ops %v, want %v", ops, want)
	}
	for i := range want {
		if ops[i] != want[i] {
			t.Fatalf("encoding/json ops %v, want %v", ops, want)
		}
	}
	var size int
	for _, r := range rs {
		if r.Codec == "encoding/json" && r.Op == results.OpMarshal {
			size = r.SizeBytes
		}
		kind, id, ok := results.CompressOp(r.Op)
		if !ok {
			if r.CompressedBytes != 0 || r.CompressRatio != 0 {
				t.Errorf("%s %s: compression figures on a codec op", r.Codec, r.Op)
			}
			continue
		}
		if kind == "" || id == "" || !r.OK || !r.Timed() || r.MBPerS <= 0 {
			t.Errorf("%s %s: not timed: %+v", r.Codec, r.Op, r)
		}
		if r.SizeBytes != size || r.CompressedBytes <= 0 || r.CompressedBytes >= r.SizeBytes {
			t.Errorf("%s %s: size %d, compressed %d", r.Codec, r.Op, r.SizeBytes, r.CompressedBytes)
		}
		if got := float64(r.CompressedBytes) / float64(r.SizeBytes); r.CompressRatio != got || r.BytesOverJSON != got {
			// The lossy codec writes the same JSON as the baseline.
			t.Errorf("%s %s: ratio %v, json ratio %v, want %v", r.Codec, r.Op, r.CompressRatio, r.BytesOverJSON, got)
		}
	}
}

func TestCompressOp(t *testing.T) {
	for op, want := range map[string][2]string{
		"compress:zstd": {"compress", "zstd"}, "decompress:s2": {"decompress", "s2"},
		"marshal": {}, "compress:": {}, "compress": {},
	} {
		k, id, ok := results.CompressOp(op)
		if ok != (want[0] != "") || k != want[0] || id != want[1] {
			t.Errorf("results.CompressOp(%q) = %q, %q, %v", op, k, id, ok)
		}
	}
}
