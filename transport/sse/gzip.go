package sse

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/flate"
)

// acceptsGzip reports whether an Accept-Encoding header allows gzip: a
// "gzip" or "*" coding with a q-value above 0 (RFC 9110 §12.5.3), and no
// "gzip;q=0" that refuses it.
func acceptsGzip(h http.Header) bool {
	star := false
	for _, v := range h.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			switch coding {
			case "gzip", "x-gzip":
				return q > 0
			case "*":
				star = q > 0
			}
		}
	}
	return star
}

// startGzip makes cw compress what it writes from now on.
func (cw *connWriter) startGzip() {
	cw.gz = &gzipWriter{w: cw.w}
}

// closeGzip writes the gzip trailer and flushes it; on a connection that
// has failed that fails too, and there is no one left to tell.
func (cw *connWriter) closeGzip() {
	if cw.gz.Close() == nil {
		_ = cw.rc.Flush()
	}
}

// GzipIdle is how long an SSE gzip response goes without an event before
// it gives its compressor back to the pool: an idle subscription then
// holds a few hundred bytes instead of the compressor's history window and
// hash tables (about 1 MB each at the default level, measured with
// github.com/klauspost/compress v1.20.3).
const GzipIdle = time.Second

// flatePool holds idle compressors at the default level.
var flatePool sync.Pool

// gzipWriter writes one gzip member (RFC 1952: header, deflate data,
// CRC-32 and size) whose deflate data (RFC 1951) comes from pooled
// compressors: release flushes the compressor in use (a sync flush ends
// on a byte boundary) and returns it to the pool, and the next Write
// continues the same deflate stream with a compressor that starts afresh.
// The blocks after a release refer to nothing before it (the decoder keeps
// its window; the compressor does not), so the stream stays valid and
// compresses each busy spell on its own.
type gzipWriter struct {
	w       io.Writer
	fw      *flate.Writer // nil while released
	started bool          // header written
	crc     uint32
	size    uint32 // uncompressed bytes, modulo 2^32
}

var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff} // deflate, no flags, no mtime, unknown OS

// compressor returns the compressor in use, taking one from the pool (or
// making one) after the header when there is none.
func (g *gzipWriter) compressor() (*flate.Writer, error) {
	if !g.started {
		if _, err := g.w.Write(gzipHeader); err != nil {
			return nil, err
		}
		g.started = true
	}
	if g.fw == nil {
		if fw, ok := flatePool.Get().(*flate.Writer); ok {
			fw.Reset(g.w)
			g.fw = fw
		} else {
			fw, err := flate.NewWriter(g.w, flate.DefaultCompression)
			if err != nil {
				return nil, err
			}
			g.fw = fw
		}
	}
	return g.fw, nil
}

// Write compresses p.
func (g *gzipWriter) Write(p []byte) (int, error) {
	fw, err := g.compressor()
	if err != nil {
		return 0, err
	}
	n, err := fw.Write(p)
	g.crc = crc32.Update(g.crc, crc32.IEEETable, p[:n])
	g.size += uint32(n)
	return n, err
}

// Flush writes what the compressor holds (a sync flush).
func (g *gzipWriter) Flush() error {
	if g.fw == nil {
		return nil
	}
	return g.fw.Flush()
}

// release flushes and gives the compressor back to the pool.
func (g *gzipWriter) release() error {
	if g.fw == nil {
		return nil
	}
	err := g.fw.Flush()
	flatePool.Put(g.fw)
	g.fw = nil
	return err
}

// Close ends the deflate stream and writes the trailer.
func (g *gzipWriter) Close() error {
	fw, err := g.compressor()
	if err != nil {
		return err
	}
	err = fw.Close()
	flatePool.Put(fw)
	g.fw = nil
	if err != nil {
		return err
	}
	trailer := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, g.crc), g.size)
	_, err = g.w.Write(trailer)
	return err
}
