// Package sse serves a transport.Hub's streams as Server-Sent Events (the
// text/event-stream format of the WHATWG HTML Living Standard, §9.2
// "Server-sent events") and reads them back for the load client.
//
// # Framing
//
// Every message is one event, with fields in this order:
//
//	id: <seq>                  decimal sequence number (also the Last-Event-ID)
//	event: <scenario ID>       the event type, e.g. "sse-event"
//	t: <unix ns>               intended send time, decimal nanoseconds since 1970 UTC
//	data: <payload>            the codec output
//	<blank line>
//
// "t" is not a field the standard defines: EventSource ignores it (§9.2.6,
// "Otherwise: the field is ignored"), so browsers see only id, event and data.
// Text payloads (codec.Info.Binary false) are sent as they are, one data:
// line per line of the payload; binary payloads are sent as one line of
// standard base64 (RFC 4648 §4, with padding), and that overhead is counted
// by the load client. A stream with a count ends with
//
//	event: end
//	data: <count>
//
// after which the server closes the response. The first bytes of a response
// are a comment naming the stream and a "retry:" field.
//
// On a stream that switches codec (transport.Switch) the event type is
// instead the ID of the codec that encoded that message (m.Codec, e.g.
// "msgpack"), and base64 follows that codec's Binary: a client decodes each
// event by its type.
// are a comment naming the stream and a "retry:" field. When the codec's
// Binding is a codec.Preambler (gob/stream), an event without id: follows,
//
//	event: preamble
//	data: <the preamble, framed as payloads are>
//
// before any replayed or live event: what the client's decoder must read
// before the stream's messages.
package sse

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/serbench/serbench/transport"
)

// EndEvent is the event type of the last event of a stream with a count.
const EndEvent = "end"

// PreambleEvent is the event type of a connection's preamble.
const PreambleEvent = "preamble"

// AppendPreamble appends the preamble event holding p; binary selects
// base64.
func AppendPreamble(dst, p []byte, binary bool) []byte {
	dst = append(dst, "event: "+PreambleEvent+"\n"...)
	if binary {
		dst = append(dst, "data: "...)
		dst = base64.StdEncoding.AppendEncode(dst, p)
		dst = append(dst, '\n')
	} else {
		dst = appendDataLines(dst, p)
	}
	return append(dst, '\n')
}

// AppendEvent appends the event for m to dst (see the package doc for the
// framing). eventType must not contain a newline; binary selects base64.
// When m.Codec is set (a switching stream), it is the event type and
// m.Binary selects base64 instead.
func AppendEvent(dst []byte, eventType string, m *transport.Message, binary bool) []byte {
	if m.Codec != "" {
		eventType, binary = m.Codec, m.Binary
	}
	dst = append(dst, "id: "...)
	dst = strconv.AppendUint(dst, m.Seq, 10)
	dst = append(dst, "\nevent: "...)
	dst = append(dst, eventType...)
	dst = append(dst, "\nt: "...)
	dst = strconv.AppendInt(dst, m.Intended.UnixNano(), 10)
	dst = append(dst, '\n')
	if binary {
		dst = append(dst, "data: "...)
		dst = base64.StdEncoding.AppendEncode(dst, m.Payload)
		dst = append(dst, '\n')
	} else {
		dst = appendDataLines(dst, m.Payload)
	}
	return append(dst, '\n')
}

// appendDataLines writes p as data: lines, splitting at LF, CR and CRLF so
// that a reader joining the lines with LF gets p back (when p uses LF).
func appendDataLines(dst, p []byte) []byte {
	for {
		i := bytes.IndexAny(p, "\r\n")
		dst = append(dst, "data: "...)
		if i < 0 {
			dst = append(dst, p...)
			return append(dst, '\n')
		}
		dst = append(dst, p[:i]...)
		dst = append(dst, '\n')
		if p[i] == '\r' && i+1 < len(p) && p[i+1] == '\n' {
			i++
		}
		p = p[i+1:]
	}
}

// AppendEnd appends the end event of a stream of count messages.
func AppendEnd(dst []byte, count uint64) []byte {
	dst = append(dst, "event: "+EndEvent+"\ndata: "...)
	dst = strconv.AppendUint(dst, count, 10)
	return append(dst, "\n\n"...)
}

// Event is one event read by a Reader. Its slices are valid until the next
// call to Next.
type Event struct {
	// ID is the id: field ("" when absent); HasID says whether it was present.
	ID    []byte
	HasID bool
	// Type is the event: field ("" when absent, which EventSource calls "message").
	Type []byte
	// Data is the data: lines joined with LF.
	Data []byte
	// T is the t: field (intended send time, Unix ns); HasT says whether it was present.
	T    int64
	HasT bool
}

// DefaultMaxEventBytes is Reader.MaxEventBytes when zero: 1 MiB.
const DefaultMaxEventBytes = 1 << 20

// ErrEventTooLarge is returned by Reader.Next for an event over MaxEventBytes.
var ErrEventTooLarge = errors.New("sse: event too large")

// Reader reads events from a text/event-stream. Lines end with LF or CRLF
// (a lone CR, which the standard also allows, is not supported). Comments,
// retry: and unknown fields are skipped; a block without data: is not an event.
type Reader struct {
	// MaxEventBytes caps one event's bytes, fields included. Default 1 MiB.
	MaxEventBytes int

	r    *bufio.Reader
	long []byte // a line longer than r's buffer
	ev   Event
	buf  []byte // backing store for ID, Type, Data of the current event
	size int
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 4<<10)}
}

// readLine returns the next line with its LF, valid until the next call;
// a line longer than max is ErrEventTooLarge, the end of the stream io.EOF.
func (rd *Reader) readLine(max int) ([]byte, error) {
	line, err := rd.r.ReadSlice('\n')
	if err == nil {
		return line, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	rd.long = append(rd.long[:0], line...)
	for {
		if len(rd.long) > max {
			return nil, fmt.Errorf("%w: line over %d bytes", ErrEventTooLarge, max)
		}
		line, err = rd.r.ReadSlice('\n')
		rd.long = append(rd.long, line...)
		if err == nil {
			return rd.long, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// Next returns the next event. At the end of the stream it returns io.EOF
// (an event cut off by the end of the stream is discarded, as the standard
// says); a line or event over MaxEventBytes is ErrEventTooLarge.
func (rd *Reader) Next() (*Event, error) {
	limit := rd.MaxEventBytes
	if limit <= 0 {
		limit = DefaultMaxEventBytes
	}
	rd.ev = Event{}
	rd.buf = rd.buf[:0]
	rd.size = 0
	var idOff, idEnd, tyOff, tyEnd, dOff, dEnd int
	haveData := false
	for {
		line, err := rd.readLine(limit - rd.size)
		if err != nil {
			return nil, err
		}
		rd.size += len(line)
		if rd.size > limit {
			return nil, fmt.Errorf("%w: over %d bytes", ErrEventTooLarge, limit)
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if len(line) == 0 {
			if haveData {
				break
			}
			// No data: the standard dispatches nothing (a retry: block, say).
			rd.ev = Event{}
			rd.buf = rd.buf[:0]
			idOff, idEnd, tyOff, tyEnd = 0, 0, 0, 0
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			name, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(name) {
		case "id":
			if bytes.IndexByte(value, 0) >= 0 {
				continue // the standard ignores ids with NUL
			}
			idOff = len(rd.buf)
			rd.buf = append(rd.buf, value...)
			idEnd = len(rd.buf)
			rd.ev.HasID = true
		case "event":
			tyOff = len(rd.buf)
			rd.buf = append(rd.buf, value...)
			tyEnd = len(rd.buf)
		case "t":
			if v, err := strconv.ParseInt(string(value), 10, 64); err == nil {
				rd.ev.T, rd.ev.HasT = v, true
			}
		case "data":
			// Data lines must be contiguous in buf: copy earlier data to the end
			// if other fields came in between.
			if haveData && dEnd != len(rd.buf) {
				prev := append([]byte(nil), rd.buf[dOff:dEnd]...)
				dOff = len(rd.buf)
				rd.buf = append(rd.buf, prev...)
			}
			if !haveData {
				dOff = len(rd.buf)
			} else {
				rd.buf = append(rd.buf, '\n')
			}
			rd.buf = append(rd.buf, value...)
			dEnd = len(rd.buf)
			haveData = true
		}
	}
	rd.ev.ID = rd.buf[idOff:idEnd]
	rd.ev.Type = rd.buf[tyOff:tyEnd]
	rd.ev.Data = rd.buf[dOff:dEnd]
	return &rd.ev, nil
}
