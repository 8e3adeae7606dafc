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

// readAll appends what r yields to dst[:0], failing with ErrTooLarge past
// MaxDecompressedBytes.
func readAll(dst []byte, r io.Reader) ([]byte, error) {
	buf := bytes.NewBuffer(dst[:0])
	n, err := io.Copy(buf, io.LimitReader(r, MaxDecompressedBytes+1))
	if err != nil {
		return nil, err
	}
	if n > MaxDecompressedBytes {
		return nil, ErrTooLarge
	}
	return buf.Bytes(), nil
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
}

func (g *gzipper) Compress(dst, src []byte) ([]byte, error) {
	buf := bytes.NewBuffer(dst[:0])
	g.w.Reset(buf)
	if _, err := g.w.Write(src); err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	if err := g.w.Close(); err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	return buf.Bytes(), nil
}

func (g *gzipper) Decompress(dst, src []byte) ([]byte, error) {
	g.b.Reset(src)
	if err := g.r.Reset(&g.b); err != nil {
		return nil, fmt.Errorf("compressor: gzip: %w", err)
	}
	out, err := readAll(dst, &g.r)
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
}

func (l *lz4er) Compress(dst, src []byte) ([]byte, error) {
	buf := bytes.NewBuffer(dst[:0])
	l.w.Reset(buf)
	if _, err := l.w.Write(src); err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	if err := l.w.Close(); err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	return buf.Bytes(), nil
}

func (l *lz4er) Decompress(dst, src []byte) ([]byte, error) {
	l.b.Reset(src)
	l.r.Reset(&l.b)
	out, err := readAll(dst, l.r)
	if err != nil {
		return nil, fmt.Errorf("compressor: lz4: %w", err)
	}
	return out, nil
}
