// Package ws serves a transport.Hub's streams over WebSocket (RFC 6455, with
// github.com/gorilla/websocket).
//
// # Framing
//
// Every message is one WebSocket message: a text frame for text codecs
// (codec.Info.Binary false), a binary frame for binary ones. Its first
// HeaderLen bytes are the same ASCII header for every codec,
//
//	<seq: 16 lowercase hex digits> SP <intended send time: 16 lowercase hex digits> LF
//
// where the time is Unix nanoseconds as a two's-complement 64-bit number;
// the codec payload follows unchanged. A stream with a count ends with a
// close frame, status 1000 (normal closure) and reason "end"; the server
// waits for the client's close frame (the close handshake of RFC 6455 §7)
// before it closes the TCP connection.
//
// On a stream that switches codec (transport.Switch), every message
// carries the ID of the codec that encoded it between the header and the
// payload, as one line (AppendTag, ParseTag):
//
//	<header> <codec ID> LF <payload>
//
// and its frame type follows that codec (text or binary), so a client
// decodes each message by its tag without reconnecting.
// When the codec's Binding is a codec.Preambler (gob/stream), the first
// message of every connection is its preamble: a message like the others
// whose sequence number is PreambleSeq and whose time is 0, sent before any
// replayed or live message. It is not a stream message and has no place in
// the sequence.
//
// The codec is chosen by the codec= query parameter or negotiated as the
// subprotocol "serbench.<codec ID with / replaced by .>" (Subprotocol,
// which escapes the ID with codec.EscapeID).
package ws

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/transport"
)

// HeaderLen is the length of the header before each payload, in bytes.
const HeaderLen = 34

// PreambleSeq is the sequence number of a connection's preamble message.
const PreambleSeq = math.MaxUint64

// EndReason is the close reason of a stream that ended after its count.
const EndReason = "end"

// SubprotocolPrefix starts every serbench subprotocol name.
const SubprotocolPrefix = "serbench."

// Subprotocol returns the subprotocol that selects codecID: the prefix and
// codec.EscapeID of the ID, e.g. "serbench.encoding.json" for
// "encoding/json". For every ID of codec/all (letters, digits, '-' and '/')
// that is the ID with '/' written as '.', as it always was.
func Subprotocol(codecID string) string {
	return SubprotocolPrefix + codec.EscapeID(codecID)
}

// AppendHeader appends the header of m to dst.
func AppendHeader(dst []byte, m *transport.Message) []byte {
	dst = appendHex16(dst, m.Seq)
	dst = append(dst, ' ')
	dst = appendHex16(dst, uint64(m.Intended.UnixNano()))
	return append(dst, '\n')
}

func appendHex16(dst []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&0xf]
		v >>= 4
	}
	return append(dst, b[:]...)
}

// ErrBadHeader is wrapped by ParseHeader's errors.
var ErrBadHeader = errors.New("ws: bad message header")

// ParseHeader splits a message into its sequence number, intended send time
// (Unix ns) and payload.
func ParseHeader(msg []byte) (seq uint64, intended int64, payload []byte, err error) {
	if len(msg) < HeaderLen || msg[16] != ' ' || msg[33] != '\n' {
		return 0, 0, nil, fmt.Errorf("%w: %q", ErrBadHeader, msg[:min(len(msg), HeaderLen)])
	}
	s, ok1 := parseHex16(msg[:16])
	t, ok2 := parseHex16(msg[17:33])
	if !ok1 || !ok2 {
		return 0, 0, nil, fmt.Errorf("%w: %q", ErrBadHeader, msg[:HeaderLen])
	}
	return s, int64(t), msg[HeaderLen:], nil
}

func parseHex16(b []byte) (uint64, bool) {
	var v uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// Options configure the WebSocket handler. The zero value means defaults.
type Options struct {
	// AllowOrigins lists origins (scheme://host[:port], compared without
	// case) allowed besides the same origin; "*" allows every origin.
	// Requests without an Origin header (non-browser clients) are allowed.
	AllowOrigins []string
	// ReadLimit caps one message from a client, in bytes; clients have
	// nothing to send but control frames. Default 4096; range [125, 1 MiB].
	ReadLimit int64
	// PingInterval is how often the server pings; a client that answers
	// no ping within PongWait is disconnected. Default 15s; range [10ms, 1h].
	PingInterval time.Duration
	// PongWait is the read deadline renewed by every pong. Default
	// 2*PingInterval; range (PingInterval, 2h].
	PongWait time.Duration
	// WriteTimeout bounds each write to a client. Default 10s; range [1ms, 10m].
	WriteTimeout time.Duration
	// CloseWait bounds the wait for the client's close frame after the
	// server's. Default 2s; range [1ms, 1m].
	CloseWait time.Duration
	// Compress accepts the permessage-deflate extension (RFC 7692) when a
	// client offers it, and then compresses every message. Default false.
	// gorilla/websocket supports only the no-context-takeover mode: each
	// message is compressed on its own (DEFLATE level 1), so short messages
	// gain little and may grow. A message is compressed once for all the
	// connections it goes to (websocket.PreparedMessage), not once per
	// connection.
	Compress bool
}

// Defaults of Options; PongWait defaults to twice PingInterval.
const (
	DefaultReadLimit    = 4096
	DefaultPingInterval = 15 * time.Second
	DefaultWriteTimeout = 10 * time.Second
	DefaultCloseWait    = 2 * time.Second
)

// Effective returns o with defaults filled in, or an error naming the
// first field out of range.
func (o Options) Effective() (Options, error) {
	if o.ReadLimit == 0 {
		o.ReadLimit = DefaultReadLimit
	}
	if o.PingInterval == 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.PongWait == 0 {
		o.PongWait = 2 * o.PingInterval
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.CloseWait == 0 {
		o.CloseWait = DefaultCloseWait
	}
	switch {
	case o.ReadLimit < 125 || o.ReadLimit > 1<<20:
		return o, fmt.Errorf("ws: invalid ReadLimit %d (range is [125, %d])", o.ReadLimit, 1<<20)
	case o.PingInterval < 10*time.Millisecond || o.PingInterval > time.Hour:
		return o, fmt.Errorf("ws: invalid PingInterval %v (range is [10ms, 1h])", o.PingInterval)
	case o.PongWait <= o.PingInterval || o.PongWait > 2*time.Hour:
		return o, fmt.Errorf("ws: invalid PongWait %v (range is (%v, 2h])", o.PongWait, o.PingInterval)
	case o.WriteTimeout < time.Millisecond || o.WriteTimeout > 10*time.Minute:
		return o, fmt.Errorf("ws: invalid WriteTimeout %v (range is [1ms, 10m])", o.WriteTimeout)
	case o.CloseWait < time.Millisecond || o.CloseWait > time.Minute:
		return o, fmt.Errorf("ws: invalid CloseWait %v (range is [1ms, 1m])", o.CloseWait)
	}
	return o, nil
}
