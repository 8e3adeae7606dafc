package bench

import (
	"bytes"
	"fmt"

	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/results"
)

// Compression is one compressor for Options.Compressors: the type is
// package compressor's, which declares only types, so that bench, and the
// root package through it, link no compression library (the
// implementations, gzip, zstd, snappy, s2 and lz4, are in
// compressor/algorithms). Its ID names its ops, "compress:<ID>" and
// "decompress:<ID>"; each timed loop and check takes an instance of its own
// (New).
type Compression = compressor.Algorithm

// compressCells returns, for the marshal cell m of one codec and scenario,
// a compress and a decompress cell per compressor: they time compressing
// the codec's encoded bytes (m.encoded) and decompressing the result, each
// with an instance of its own, after one checked round trip. Their
// SizeBytes is the codec's encoded size, so MB/s is uncompressed bytes
// per second on both ops; CompressedBytes and CompressRatio describe the
// output. Nothing when the codec produced no bytes. For a message corpus
// (m.encodedAll set) every message is compressed on its own, one by one in
// turn: ns/op is per message, CompressedBytes the mean compressed size,
// CompressRatio the whole stream's ratio and Stream the compressed sizes.
func compressCells(m *cell, algs []Compression) []*cell {
	if m.encoded == nil {
		return nil
	}
	inputs := m.encodedAll
	if inputs == nil {
		inputs = [][]byte{m.encoded}
	}
	var out []*cell
	for _, a := range algs {
		mk := func(op string) *cell {
			x := &cell{Row: results.Row{Codec: m.Codec, Scenario: m.Scenario, Op: op, SizeBytes: m.SizeBytes}, size: m.size}
			return x
		}
		c, d := mk(results.OpCompressPrefix+a.ID), mk(results.OpDecompressPrefix+a.ID)
		out = append(out, c, d)
		zs := make([][]byte, len(inputs))
		sizes := make([]int, len(inputs))
		var err error
		for i, in := range inputs {
			if zs[i], err = roundTripCompress(a, in); err != nil {
				break
			}
			sizes[i] = len(zs[i])
		}
		if err != nil {
			c.failed, d.failed = err, err
			continue
		}
		st := newStreamSizes(sizes)
		var raw int64
		for _, in := range inputs {
			raw += int64(len(in))
		}
		for _, x := range []*cell{c, d} {
			x.CompressedBytes = st.MeanSize()
			if raw > 0 {
				x.CompressRatio = float64(st.TotalBytes) / float64(raw)
			}
			if m.encodedAll != nil {
				x.Stream = st
			}
		}
		c.newFn = compressLoop(a, inputs, false)
		d.newFn = compressLoop(a, zs, true)
	}
	return ready(out)
}

// roundTripCompress compresses data with a, decompresses the result and
// checks that it gives data back; it returns the compressed bytes.
func roundTripCompress(a Compression, data []byte) ([]byte, error) {
	c, err := a.New()
	if err != nil {
		return nil, err
	}
	z, err := c.Compress(nil, data)
	if err != nil {
		return nil, err
	}
	z = bytes.Clone(z)
	back, err := c.Decompress(nil, z)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(back, data) {
		return nil, fmt.Errorf("bench: %s round trip changed the bytes (%d in, %d out)", a.ID, len(data), len(back))
	}
	return z, nil
}

// compressLoop times Compress of in, or Decompress when decompress is set,
// reusing one output buffer as a long-lived connection would. With more
// than one input it takes them one by one in turn.
func compressLoop(a Compression, in [][]byte, decompress bool) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		c, err := a.New()
		if err != nil {
			return nil, err
		}
		op := c.Compress
		if decompress {
			op = c.Decompress
		}
		var buf []byte
		sink := new([]byte)
		if len(in) == 1 {
			one := in[0]
			return func(n int) error {
				var err error
				for range n {
					if buf, err = op(buf, one); err != nil {
						return err
					}
				}
				*sink = buf
				return nil
			}, nil
		}
		next := 0
		return func(n int) error {
			var err error
			for range n {
				if buf, err = op(buf, in[next]); err != nil {
					return err
				}
				if next++; next == len(in) {
					next = 0
				}
			}
			*sink = buf
			return nil
		}, nil
	}
}
