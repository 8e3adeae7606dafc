// Package algorithms holds the compressors serbench knows (gzip, zstd,
// snappy, s2, lz4), each at its library's default level in its library's
// standard format (see All), as compressor.Algorithm values, which
// bench.Options.Compressors takes. It is a package of its own so that only
// the programs that compress (the CLI's -compress) link the compression
// libraries.
package algorithms

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/internal/pick"
)

const klauspost = "github.com/klauspost/compress"

// appender is an io.Writer and io.ReaderFrom that appends to b, so that a
// stream compressor's output lands in the caller's buffer with no
// allocation once it has grown.
type appender struct {
	b []byte
	// max caps ReadFrom's total; 0 means compressor.MaxDecompressedBytes.
	max int
}

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// ReadFrom appends what r yields, failing with compressor.ErrTooLarge past a.max.
func (a *appender) ReadFrom(r io.Reader) (int64, error) {
	limit := a.max
	if limit == 0 {
		limit = compressor.MaxDecompressedBytes
	}
	var n int64
	for {
		if len(a.b) == cap(a.b) {
			a.b = append(a.b, 0)[:len(a.b)]
		}
		m, err := r.Read(a.b[len(a.b):cap(a.b)])
		a.b = a.b[:len(a.b)+m]
		n += int64(m)
		if len(a.b) > limit {
			return n, compressor.ErrTooLarge
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// readAll appends what r yields to dst[:0] through a, failing with
// compressor.ErrTooLarge past compressor.MaxDecompressedBytes.
func readAll(a *appender, dst []byte, r io.Reader) ([]byte, error) {
	a.b = dst[:0]
	_, err := a.ReadFrom(r)
	out := a.b
	a.b = nil
	if err != nil {
		return nil, err
	}
	return out, nil
}

// streamWriter is a compressing stream writer that Reset points at another
// destination: gzip's and lz4's Writer.
type streamWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// writeAll compresses src with w as one whole stream (Write, then Close),
// appending it to dst[:0] through a.
func writeAll(a *appender, dst []byte, w streamWriter, src []byte) ([]byte, error) {
	a.b = dst[:0]
	w.Reset(a)
	_, err := w.Write(src)
	if err == nil {
		err = w.Close()
	}
	out := a.b
	a.b = nil
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkLen rejects a block whose header announces more than
// compressor.MaxDecompressedBytes.
func checkLen(n int, err error) error {
	if err != nil {
		return err
	}
	if n > compressor.MaxDecompressedBytes {
		return fmt.Errorf("%w (header says %d bytes)", compressor.ErrTooLarge, n)
	}
	return nil
}

var gzipAlgorithm = compressor.Algorithm{
	Info: compressor.Info{ID: "gzip", Module: klauspost, Level: "6 (gzip.DefaultCompression)", Format: "gzip stream (RFC 1952)"},
	New: func() (compressor.Compressor, error) {
		w, err := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
		if err != nil {
			return nil, fmt.Errorf("compressor: gzip: %w", err)
		}
		return &gzipper{w: w}, nil
	},
}

type gzipper struct {
	w *gzip.Writer
	r gzip.Reader
	b bytes.Reader
	a appender
}

func (g *gzipper) Compress(dst, src []byte) ([]byte, error) {
	out, err := writeAll(&g.a, dst, g.w, src)
	if err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	return out, nil
}

func (g *gzipper) Decompress(dst, src []byte) ([]byte, error) {
	g.b.Reset(src)
	if err := g.r.Reset(&g.b); err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	out, err := readAll(&g.a, dst, &g.r)
	if err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	return out, nil
}

var zstdAlgorithm = compressor.Algorithm{
	Info: compressor.Info{ID: "zstd", Module: klauspost, Level: "SpeedDefault (about zstd level 3)", Format: "zstd frame (RFC 8878)"},
	New: func() (compressor.Compressor, error) {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("compressor: zstd: %w", err)
		}
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(compressor.MaxDecompressedBytes))
		if err != nil {
			return nil, fmt.Errorf("compressor: zstd: %w", err)
		}
		return &zstder{e: e, d: d}, nil
	},
}

type zstder struct {
	e *zstd.Encoder
	d *zstd.Decoder
}

func (z *zstder) Compress(dst, src []byte) ([]byte, error) {
	return z.e.EncodeAll(src, dst[:0]), nil
}

func (z *zstder) Decompress(dst, src []byte) ([]byte, error) {
	out, err := z.d.DecodeAll(src, dst[:0])
	if err != nil {
		return nil, fmt.Errorf("compressor: zstd: %w", err)
	}
	return out, nil
}

var snappyAlgorithm = compressor.Algorithm{
	Info: compressor.Info{ID: "snappy", Module: klauspost, Level: "none (one level)", Format: "Snappy block"},
	New: func() (compressor.Compressor, error) {
		return blockCodec{name: "snappy", encode: snappy.Encode, decodedLen: snappy.DecodedLen, decode: snappy.Decode}, nil
	},
}

var s2Algorithm = compressor.Algorithm{
	Info: compressor.Info{ID: "s2", Module: klauspost, Level: "default (s2.Encode)", Format: "S2 block"},
	New: func() (compressor.Compressor, error) {
		return blockCodec{name: "s2", encode: s2.Encode, decodedLen: s2.DecodedLen, decode: s2.Decode}, nil
	},
}

// blockCodec is a block format with snappy's functions (Encode, DecodedLen,
// Decode), which klauspost's snappy and s2 packages both have. Decompress
// checks the decoded length the block states (checkLen) before decoding.
type blockCodec struct {
	name       string
	encode     func(dst, src []byte) []byte
	decodedLen func(src []byte) (int, error)
	decode     func(dst, src []byte) ([]byte, error)
}

func (b blockCodec) Compress(dst, src []byte) ([]byte, error) {
	return b.encode(dst[:cap(dst)], src), nil
}

func (b blockCodec) Decompress(dst, src []byte) ([]byte, error) {
	if err := checkLen(b.decodedLen(src)); err != nil {
		return nil, fmt.Errorf("compressor: %s: %w", b.name, err)
	}
	out, err := b.decode(dst[:cap(dst)], src)
	if err != nil {
		return nil, fmt.Errorf("compressor: %s: %w", b.name, err)
	}
	return out, nil
}

var lz4Algorithm = compressor.Algorithm{
	Info: compressor.Info{ID: "lz4", Module: "github.com/pierrec/lz4/v4", Level: "Fast (the package default)", Format: "LZ4 frame, 64 KiB blocks, content checksum"},
	New: func() (compressor.Compressor, error) {
		w := lz4.NewWriter(io.Discard)
		if err := w.Apply(lz4.BlockSizeOption(lz4.Block64Kb), lz4.CompressionLevelOption(lz4.Fast)); err != nil {
			return nil, fmt.Errorf("compressor: lz4: %w", err)
		}
		return &lz4er{w: w, r: lz4.NewReader(nil)}, nil
	},
}

type lz4er struct {
	w *lz4.Writer
	r *lz4.Reader
	b bytes.Reader
	a appender
}

func (l *lz4er) Compress(dst, src []byte) ([]byte, error) {
	out, err := writeAll(&l.a, dst, l.w, src)
	if err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	return out, nil
}

func (l *lz4er) Decompress(dst, src []byte) ([]byte, error) {
	l.b.Reset(src)
	l.r.Reset(&l.b)
	out, err := readAll(&l.a, dst, l.r)
	if err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	return out, nil
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
func All() []compressor.Algorithm {
	return []compressor.Algorithm{gzipAlgorithm, zstdAlgorithm, snappyAlgorithm, s2Algorithm, lz4Algorithm}
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
func Select(ids []string) ([]compressor.Algorithm, error) {
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return nil, fmt.Errorf("compressor: %q given twice", id)
		}
		seen[id] = true
	}
	out, err := pick.ByID(All(), func(a compressor.Algorithm) string { return a.ID }, ids, "compressor")
	if err != nil {
		return nil, fmt.Errorf("compressor: %w", err)
	}
	return out, nil
}

// Parse returns the compressors of a comma-separated list of IDs
// (serbench run -compress), in the order given (Select); spaces around an
// ID and empty items are ignored, and "" is none. A list of empty items
// only (",") is an error.
func Parse(list string) ([]compressor.Algorithm, error) {
	if list == "" {
		return nil, nil
	}
	var ids []string
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("compressor: no compressor in %q (valid: %s)", list, strings.Join(IDs(), ", "))
	}
	return Select(ids)
}
