package report

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/results"
)

// compressDoc is one scenario with a codec op and the two zstd ops of
// encoding/json and of a binary codec, with made-up figures.
func compressDoc() *results.Run {
	doc := &results.Run{Baseline: "encoding/json", Count: 1}
	algs, _ := algorithms.Select([]string{"zstd"})
	doc.Compressors = []compressor.Info{algs[0].Info}
	add := func(codec, op string, size, z int) {
		r := results.Row{Codec: codec, Scenario: "user-event", Op: op, NsPerOp: 1000, MBPerS: float64(size) / 1000 * 1e3,
			SizeBytes: size, OK: true, Samples: []float64{1000}, Iterations: 10}
		if z > 0 {
			r.CompressedBytes, r.CompressRatio, r.BytesOverJSON = z, float64(z)/float64(size), float64(z)/1175
		}
		doc.Results = append(doc.Results, r)
	}
	add("encoding/json", results.OpMarshal, 1175, 0)
	add("encoding/json", "compress:zstd", 1175, 695)
	add("encoding/json", "decompress:zstd", 1175, 695)
	add("wire", results.OpMarshal, 640, 0)
	add("wire", "compress:zstd", 640, 512)
	return doc
}

func TestCompressColumns(t *testing.T) {
	doc := compressDoc()
	var tab bytes.Buffer
	if err := Table(&tab, doc); err != nil {
		t.Fatal(err)
	}
	text := tab.String()
	if !strings.HasPrefix(text, "compressors: zstd level SpeedDefault") {
		t.Errorf("table does not start with the compressors' levels:\n%s", text)
	}
	for _, want := range []string{"compressed  ratio  vs json", "695  0.591    0.591", "512  0.800    0.436",
		"zstd level SpeedDefault (about zstd level 3)", "never inside marshal"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	var c bytes.Buffer
	if err := CSV(&c, doc); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	if got := strings.Join(head[len(head)-3:], ","); got != "compressed_bytes,compress_ratio,bytes_over_json" {
		t.Errorf("CSV header ends %q", got)
	}
	if got := strings.Join(recs[5][len(head)-3:], ","); got != "512,0.8,"+strconv.FormatFloat(512.0/1175, 'g', -1, 64) {
		t.Errorf("CSV wire compress:zstd ends %q", got)
	}
	if got := strings.Join(recs[1][len(head)-3:], ","); got != "0,0,0" {
		t.Errorf("CSV marshal row ends %q", got)
	}

	// benchfmt carries the compressed size and reads it back.
	var bf bytes.Buffer
	if err := results.WriteBenchfmt(&bf, doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bf.String(), "Unit compressed-B/msg assume=exact") {
		t.Errorf("benchfmt lacks the unit metadata:\n%s", bf.String())
	}
	back, err := results.Read(&bf, "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range back.Results {
		if r.Codec == "wire" && r.Op == "compress:zstd" {
			if r.CompressedBytes != 512 || r.CompressRatio != 0.8 || r.BytesOverJSON != 512.0/1175 {
				t.Errorf("read back: %+v", r)
			}
			return
		}
	}
	t.Error("read back: no wire compress:zstd result")
}

func TestNoCompressColumns(t *testing.T) {
	doc := compressDoc()
	var plain []results.Row
	for _, r := range doc.Results {
		if r.CompressedBytes == 0 {
			plain = append(plain, r)
		}
	}
	doc.Results, doc.Compressors = plain, nil
	var tab, c bytes.Buffer
	if err := Table(&tab, doc); err != nil {
		t.Fatal(err)
	}
	if err := CSV(&c, doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tab.String(), "compressed") || strings.Contains(c.String(), "compressed_bytes") {
		t.Error("compression columns without compression ops")
	}
}
