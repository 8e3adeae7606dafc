package sse

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
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
	cw.gz = gzip.NewWriter(cw.w)
}

// closeGzip writes the gzip trailer and flushes it; on a connection that
// has failed that fails too, and there is no one left to tell.
func (cw *connWriter) closeGzip() {
	if cw.gz.Close() == nil {
		_ = cw.rc.Flush()
	}
}
