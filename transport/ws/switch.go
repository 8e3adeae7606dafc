package ws

import (
	"bytes"
	"fmt"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/transport"
)

// MaxTagLen caps the codec tag of a switching stream's message, in bytes.
const MaxTagLen = 128

// AppendTag appends m's codec tag line to dst when m.Codec is set (a
// switching stream), and nothing otherwise.
func AppendTag(dst []byte, m *transport.Message) []byte {
	if m.Codec == "" {
		return dst
	}
	dst = append(dst, m.Codec...)
	return append(dst, '\n')
}

// ParseTag splits the part of a switching stream's message after the
// header into the codec ID and the payload. A missing LF within
// MaxTagLen+1 bytes, or an empty tag, is an error wrapping ErrBadHeader.
func ParseTag(rest []byte) (codecID string, payload []byte, err error) {
	i := bytes.IndexByte(rest[:min(len(rest), MaxTagLen+1)], '\n')
	if i <= 0 {
		return "", nil, fmt.Errorf("%w: no codec tag in %q", ErrBadHeader, rest[:min(len(rest), 32)])
	}
	return string(rest[:i]), rest[i+1:], nil
}

// messageFrameType is the frame type of m: its own codec's on a switching
// stream, def otherwise.
func messageFrameType(m *transport.Message, def int) int {
	switch {
	case m.Codec == "":
		return def
	case m.Binary:
		return websocket.BinaryMessage
	}
	return websocket.TextMessage
}
