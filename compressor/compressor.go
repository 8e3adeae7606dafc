// Package compressor holds the general-purpose compressors that serbench
// runs on top of a codec's encoded bytes (`serbench run -compress`): the
// seeds compress JSON with gzip before it goes on the wire and traces with
// LZ4, and the question is how much a compact binary codec still gains
// once the bytes are compressed, and at what CPU cost.
//
// This package holds the types only; the implementations, All and Select
// are in compressor/algorithms, which the CLI imports. Package bench takes
// Algorithm values as they are (bench.Options.Compressors): this package
// imports only the standard library, so the root package links it, and
// no compression library.
// Instances are not safe for concurrent use; call Algorithm.New once per
// goroutine.
package compressor

import "errors"

// MaxDecompressedBytes caps the output of one Decompress: 256 MiB, four
// times the largest sweep payload. Larger output is ErrTooLarge.
const MaxDecompressedBytes = 256 << 20

// ErrTooLarge is returned (wrapped) by Decompress when the output would
// exceed MaxDecompressedBytes.
var ErrTooLarge = errors.New("compressor: decompressed data larger than MaxDecompressedBytes")

// Compressor compresses and decompresses whole messages. Both methods
// append to dst[:0], reusing its capacity, and return the result; src is
// not modified or kept.
type Compressor interface {
	Compress(dst, src []byte) ([]byte, error)
	Decompress(dst, src []byte) ([]byte, error)
}

// Info describes one compressor, for reports.
type Info struct {
	// ID is the name -compress takes: gzip, zstd, snappy, s2 or lz4.
	ID string `json:"id"`
	// Module is the Go module that implements it.
	Module string `json:"module"`
	// Level is the compression level in effect, in the library's terms.
	Level string `json:"level"`
	// Format is the container format of the output.
	Format string `json:"format"`
}

// Algorithm is a compressor with its description.
type Algorithm struct {
	Info
	// New returns a fresh instance, or an error from the library.
	New func() (Compressor, error)
}
