package load

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// compressionName is Result.Compression by transport.
var compressionName = map[string]string{"sse": "gzip", "ws": "permessage-deflate"}

// decompressed returns resp's body, gunzipped when the server sent
// Content-Encoding: gzip (which it does only when asked); it marks g
// compressed then. Another content coding is an error.
func decompressed(resp *http.Response, g *group) (io.Reader, error) {
	switch ce := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); ce {
	case "", "identity":
		return resp.Body, nil
	case "gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("load: sse gzip: %w", err)
		}
		g.compressed.Store(true)
		return zr, nil
	default:
		return nil, errFatal{fmt.Errorf("load: sse: unexpected Content-Encoding %q", ce)}
	}
}

// negotiatedDeflate reports whether a WebSocket handshake response agreed
// to permessage-deflate (RFC 7692 §5: the server's Sec-WebSocket-Extensions).
func negotiatedDeflate(resp *http.Response) bool {
	if resp == nil {
		return false
	}
	for _, v := range resp.Header.Values("Sec-WebSocket-Extensions") {
		for _, ext := range strings.Split(v, ",") {
			name, _, _ := strings.Cut(ext, ";")
			if strings.EqualFold(strings.TrimSpace(name), "permessage-deflate") {
				return true
			}
		}
	}
	return false
}
