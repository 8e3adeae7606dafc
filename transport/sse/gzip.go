package sse

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"net/http"
	"strconv"
	"strings"

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
	cw.gz = &gzipConn{}
}

// closeGzip ends the gzip member and flushes it; on a connection that has
// failed that fails too, and there is no one left to tell.
func (cw *connWriter) closeGzip() {
	if _, err := cw.w.Write(cw.gz.appendEnd(nil)); err == nil {
		_ = cw.rc.Flush()
	}
}

// gzipHeader starts a gzip member (RFC 1952 §2.3): deflate, no flags, no
// mtime, no extra flags, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// finalBlock is an empty stored deflate block with BFINAL set (RFC 1951
// §3.2.3-4), written on a byte boundary: the end of the deflate data.
var finalBlock = []byte{0x01, 0x00, 0x00, 0xff, 0xff}

// gzipConn is what one gzip response keeps between events: whether its
// header is written, and the CRC-32 and size of the text it has sent, for
// the trailer. It holds no compressor: every piece of text it sends is
// deflated on its own (Deflate) into blocks that end on a byte boundary,
// not final, and refer to nothing before them but, for a live event, the
// text of the event the response sent just before, so one event's blocks,
// made once, serve every connection of its stream that sent that same
// previous event.
type gzipConn struct {
	started bool
	crc     uint32
	size    uint32 // uncompressed bytes, modulo 2^32
}

// header returns the gzip header when the response has not sent it yet,
// and nil after.
func (g *gzipConn) header() []byte {
	if g.started {
		return nil
	}
	g.started = true
	return gzipHeader
}

// count adds text, sent deflated, to the trailer's CRC-32 and size.
func (g *gzipConn) count(text []byte) {
	g.crc = crc32.Update(g.crc, crc32.IEEETable, text)
	g.size += uint32(len(text))
}

// appendEnd appends the end of the member (the header first if it was
// never sent): the final empty block and the trailer (CRC-32 and size,
// little-endian).
func (g *gzipConn) appendEnd(dst []byte) []byte {
	dst = append(dst, g.header()...)
	dst = append(dst, finalBlock...)
	dst = binary.LittleEndian.AppendUint32(dst, g.crc)
	return binary.LittleEndian.AppendUint32(dst, g.size)
}

// Deflate returns text compressed the way a gzip response (Options.Gzip)
// compresses it: with no history but dict
// (klauspost/compress/flate's StatelessDeflate, its fastest level; at most
// the last 8 KiB of dict are used), as deflate blocks (RFC 1951), not
// final, ending with an empty stored block on a byte boundary. They are
// valid anywhere in a deflate stream whose output so far ends with dict
// (anywhere at all when dict is empty). A live event's text (AppendEvent)
// is compressed with the previous event's text as dict, once per stream.
// The error, from the compressor, names the text's length.
func Deflate(text, dict []byte) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(text)/2 + 16)
	if err := flate.StatelessDeflate(&b, text, false, dict); err != nil {
		return nil, fmt.Errorf("sse: deflate %d bytes: %w", len(text), err)
	}
	return b.Bytes(), nil
}
