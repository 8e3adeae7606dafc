package report

import (
	"fmt"
	"strings"

	"github.com/serbench/serbench/results"
)

// compressHeader names the table columns of compression ops
// (`serbench run -compress`): compressed size in bytes, that size over the
// codec's own encoded size, and over the baseline's (encoding/json's)
// uncompressed size on the same scenario.
var compressHeader = []string{"compressed", "ratio", "vs json"}

// compressCells prints r's compression columns: "412", "0.35", "0.31";
// empty on other ops.
func compressCells(r results.Row) []string {
	if r.CompressedBytes == 0 {
		return []string{"", "", ""}
	}
	ratio := func(x float64) string {
		if x == 0 {
			return ""
		}
		return fmt.Sprintf("%.3f", x)
	}
	return []string{fmt.Sprint(r.CompressedBytes), ratio(r.CompressRatio), ratio(r.BytesOverJSON)}
}

// compressLegend explains the compression ops and columns and states each
// compressor's level and format; "" when the run has none.
func compressLegend(doc *results.Run) string {
	if !results.HasCompressed(doc.Results) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "compress:X, decompress:X: compressing the codec's encoded bytes with X and back (own ops, never inside marshal); their MB/s and size are the uncompressed bytes. compressed: bytes after X. ratio: compressed over the codec's own size. vs json: compressed over %s's uncompressed size.\n", doc.Baseline)
	if l := compressorsLine(doc); l != "" {
		fmt.Fprintf(&b, "%s\n", l)
	}
	return b.String()
}

// compressorsLine states the level and format of each compressor of doc:
// "compressors: gzip level 6 (gzip.DefaultCompression), gzip stream (RFC
// 1952) (github.com/klauspost/compress); ...". "" without compressors.
func compressorsLine(doc *results.Run) string {
	var levels []string
	for _, c := range doc.Compressors {
		levels = append(levels, fmt.Sprintf("%s level %s, %s (%s)", c.ID, c.Level, c.Format, c.Module))
	}
	if len(levels) == 0 {
		return ""
	}
	return "compressors: " + strings.Join(levels, "; ") + "."
}
