// Package compressor holds the general-purpose compressors that serbench
// runs on top of a codec's encoded bytes (`serbench run -compress`): the
// seeds compress JSON with gzip before it goes on the wire and traces with
// LZ4, and the question is how much a compact binary codec still gains
// once the bytes are compressed, and at what CPU cost.
//
// Every compressor runs at its library's default level, in its library's
// standard format (see All). Instances are not safe for concurrent use;
// call Algorithm.New once per goroutine.
package compressor

import (
	"errors"
	"fmt"

	"github.com/serbench/serbench/internal/pick"
)

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

// All returns the compressors serbench knows, in the order of
// docs/reference.md, "Compression":
//
//   - gzip: github.com/klauspost/compress/gzip at level 6
//     (gzip.DefaultCompression), RFC 1952 gzip stream.
//   - zstd: github.com/klauspost/compress/zstd at SpeedDefault (about
//     zstd level 3), one zstd frame per message, single-threaded.
//   - snappy: github.com/klauspost/compress/snappy, Snappy block format
//     (no level to choose).
//   - s2: github.com/klauspost/compress/s2 at its default level, S2 block
//     format.
//   - lz4: github.com/pierrec/lz4/v4 at level Fast (the package default),
//     LZ4 frame format with 64 KiB blocks and the content checksum on.
func All() []Algorithm {
	return []Algorithm{gzipAlgorithm, zstdAlgorithm, snappyAlgorithm, s2Algorithm, lz4Algorithm}
}

// IDs returns the IDs of All, in order.
func IDs() []string {
	var ids []string
	for _, a := range All() {
		ids = append(ids, a.ID)
	}
	return ids
}

// Select returns the compressors named by ids, in the order given. An
// unknown or repeated ID is an error that lists the valid ones.
func Select(ids []string) ([]Algorithm, error) {
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return nil, fmt.Errorf("compressor: %q given twice", id)
		}
		seen[id] = true
	}
	out, err := pick.ByID(All(), func(a Algorithm) string { return a.ID }, ids, "compressor")
	if err != nil {
		return nil, fmt.Errorf("compressor: %w", err)
	}
	return out, nil
}
