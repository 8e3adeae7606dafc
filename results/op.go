package results

import "strings"

// Operation names, as they appear in results and benchmark names.
const (
	OpMarshal   = "marshal"
	OpUnmarshal = "unmarshal"
	// OpConvert is converting the scenario value to a codegen codec's own
	// type and back (Converter.ToNative then FromNative): the cost a user of
	// generated types pays on top of marshal and unmarshal.
	OpConvert = "convert"
	// OpParse is a parse-only codec's (codec.Info.ParseOnly) parse of the
	// JSON input into the library's own document tree: its only row, never
	// compared with any codec's unmarshal (no speed-up: the baseline has no
	// parse row).
	OpParse = "parse"
)

// Compression ops (bench.Options.Compressors) are named "compress:<id>" and
// "decompress:<id>", id a bench.Compression.ID: "compress:zstd".
const (
	OpCompressPrefix   = "compress:"
	OpDecompressPrefix = "decompress:"
)

// CompressOp splits a compression op name into its kind (OpCompressPrefix
// or OpDecompressPrefix without the colon: "compress", "decompress") and
// the compressor ID; ok is false for every other op.
func CompressOp(op string) (kind, id string, ok bool) {
	for _, k := range []string{"compress", "decompress"} {
		if id, ok := strings.CutPrefix(op, k+":"); ok && id != "" {
			return k, id, true
		}
	}
	return "", "", false
}
