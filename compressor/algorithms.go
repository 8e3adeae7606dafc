package compressor

import (
	"bytes"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

const klauspost = "github.com/klauspost/compress"

// appender is an io.Writer and io.ReaderFrom that appends to b, so that a
// stream compressor's output lands in the caller's buffer with no
// allocation once it has grown.
type appender struct {
	b []byte
	// max caps ReadFrom's total; 0 means MaxDecompressedBytes.
	max int
}

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// ReadFrom appends what r yields, failing with ErrTooLarge past a.max.
func (a *appender) ReadFrom(r io.Reader) (int64, error) {
	limit := a.max
	if limit == 0 {
		limit = MaxDecompressedBytes
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
			return n, ErrTooLarge
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
// ErrTooLarge past MaxDecompressedBytes.
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

// checkLen rejects a block whose header announces more than
// MaxDecompressedBytes.
func checkLen(n int, err error) error {
	if err != nil {
		return err
	}
	if n > MaxDecompressedBytes {
		return fmt.Errorf("%w (header says %d bytes)", ErrTooLarge, n)
	}
	return nil
}

var gzipAlgorithm = Algorithm{
	Info: Info{ID: "gzip", Module: klauspost, Level: "6 (gzip.DefaultCompression)", Format: "gzip stream (RFC 1952)"},
	New: func() (Compressor, error) {
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
	g.a.b = dst[:0]
	g.w.Reset(&g.a)
	if _, err := g.w.Write(src); err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	if err := g.w.Close(); err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	out := g.a.b
	g.a.b = nil
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

var zstdAlgorithm = Algorithm{
	Info: Info{ID: "zstd", Module: klauspost, Level: "SpeedDefault (about zstd level 3)", Format: "zstd frame (RFC 8878)"},
	New: func() (Compressor, error) {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("compressor: zstd: %w", err)
		}
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxDecompressedBytes))
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

var snappyAlgorithm = Algorithm{
	Info: Info{ID: "snappy", Module: klauspost, Level: "none (one level)", Format: "Snappy block"},
	New:  func() (Compressor, error) { return snappier{}, nil },
}

type snappier struct{}

func (snappier) Compress(dst, src []byte) ([]byte, error) {
	return snappy.Encode(dst[:cap(dst)], src), nil
}

func (snappier) Decompress(dst, src []byte) ([]byte, error) {
	if err := checkLen(snappy.DecodedLen(src)); err != nil {
		return nil, fmt.Errorf("compressor: snappy: %w", err)
	}
	out, err := snappy.Decode(dst[:cap(dst)], src)
	if err != nil {
		return nil, fmt.Errorf("compressor: snappy: %w", err)
	}
	return out, nil
}

var s2Algorithm = Algorithm{
	Info: Info{ID: "s2", Module: klauspost, Level: "default (s2.Encode)", Format: "S2 block"},
	New:  func() (Compressor, error) { return s2er{}, nil },
}

type s2er struct{}

func (s2er) Compress(dst, src []byte) ([]byte, error) {
	return s2.Encode(dst[:cap(dst)], src), nil
}

func (s2er) Decompress(dst, src []byte) ([]byte, error) {
	if err := checkLen(s2.DecodedLen(src)); err != nil {
		return nil, fmt.Errorf("compressor: s2: %w", err)
	}
	out, err := s2.Decode(dst[:cap(dst)], src)
	if err != nil {
		return nil, fmt.Errorf("compressor: s2: %w", err)
	}
	return out, nil
}

var lz4Algorithm = Algorithm{
	Info: Info{ID: "lz4", Module: "github.com/pierrec/lz4/v4", Level: "Fast (the package default)", Format: "LZ4 frame, 64 KiB blocks, content checksum"},
	New: func() (Compressor, error) {
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
	l.a.b = dst[:0]
	l.w.Reset(&l.a)
	if _, err := l.w.Write(src); err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	if err := l.w.Close(); err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	out := l.a.b
	l.a.b = nil
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
