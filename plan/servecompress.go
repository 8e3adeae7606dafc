package plan

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// PermessageDeflate is the compressor `serbench serve -compress` applies
// on WebSocket, as a plan compressor ID: permessage-deflate (RFC 7692)
// the way github.com/gorilla/websocket does it, which is DEFLATE level 1
// (compress/flate) over the whole message (serbench's 34-byte header and
// the payload) without context takeover, once per published message for
// every connection that negotiated it (websocket.PreparedMessage). That is
// the model's "once per message" compressor: plan measures it itself
// (MeasurePermessageDeflate) and -verify checks it against serve.
const PermessageDeflate = "permessage-deflate"

// deflateLevel is gorilla/websocket's default compression level (its
// defaultCompressionLevel), the one serve uses.
const deflateLevel = 1

// deflateTail is what permessage-deflate strips from the end of every
// compressed message (RFC 7692 §7.2.1) and a receiver appends back
// before inflating, with an empty final block after it.
const deflateTail = "\x00\x00\xff\xff\x01\x00\x00\xff\xff"

// SSEGzip is the compressor `serbench serve -compress` applies on SSE,
// as a plan compressor ID: the response is one gzip member (RFC 1952)
// whose deflate data is each live event's framed text (its id:, event:,
// t: and data: lines, binary payloads as base64) compressed once per
// stream by transport/sse's Deflate (klauspost/compress's
// StatelessDeflate, its fastest level) with the previous event's text as
// dictionary, the same bytes for every subscriber that sent that event.
// Plan measures it itself (MeasureSSEGzip) and -verify checks it against
// serve. serve sends the same value in every message, so the dictionary
// holds the same payload and the event compresses to little more than
// what changed (its id and time): events whose payloads differ compress
// less.
const SSEGzip = "sse-gzip"

// ServeCompressors returns the plan compressors `serbench serve` applies
// on via ("sse" or "ws"): [PermessageDeflate] on ws, [SSEGzip] on sse.
func ServeCompressors(via string) []string {
	switch via {
	case "ws":
		return []string{PermessageDeflate}
	case "sse":
		return []string{SSEGzip}
	}
	return nil
}

// loadCompression is load.Result.Compression for a run of serve with
// compressor (one of ServeCompressors): what the server must have agreed
// to.
func loadCompression(compressor string) string {
	if compressor == SSEGzip {
		return "gzip"
	}
	return compressor
}

// CheckServeCompressors returns an error naming the first compressor of
// ids (None aside) that `serbench serve` cannot apply on via, and the
// flag to change: -verify can run only those.
func CheckServeCompressors(via string, ids []string) error {
	can := ServeCompressors(via)
	for _, id := range ids {
		if id != None && !slices.Contains(can, id) {
			want := "none"
			if len(can) > 0 {
				want = "none or " + strings.Join(can, ", ")
			}
			return fmt.Errorf("plan: -verify -via %s: serve cannot apply compressor %q (set -compress to %s)", via, id, want)
		}
	}
	return nil
}

// MeasurePermessageDeflate measures option base (a codec's None option
// for scenario s, without Error) compressed with PermessageDeflate: c
// marshals s's value once (its native value for a codec.Converter; for a
// message corpus each of its first deflateMessages messages, and
// PayloadBytes is their mean, the rest cycling through them); the
// WebSocket message is ws's header and that payload; compress is DEFLATE level 1 with a sync flush and the 4-byte
// tail stripped, decompress the receiver's inflate of it (the tail put
// back), each timed in CPU time over count samples of at least benchtime
// (cpuTimeOp). PayloadBytes is the
// compressed message less ws.HeaderLen, the header that
// Transport.FrameBytes already counts. The efficiencies stay the codec's.
// A codec that cannot marshal s, or a compressed message that does not
// inflate back, is an error.
func MeasurePermessageDeflate(c codec.Codec, s scenario.Scenario, base Option, benchtime time.Duration, count int) (Option, error) {
	o := base
	o.Compressor, o.Binary = PermessageDeflate, true
	marshal, err := marshalNative(c, s)
	if err != nil {
		return o, err
	}
	n := 1
	if len(s.Messages) > 0 {
		n = min(len(s.Messages), deflateMessages)
	}
	msgs := make([][]byte, n)
	packed := make([][]byte, n)
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, deflateLevel)
	if err != nil {
		return o, fmt.Errorf("plan: %s: %w", PermessageDeflate, err)
	}
	next := 0
	compress := func() error {
		out.Reset()
		fw.Reset(&out)
		if _, err := fw.Write(msgs[next]); err != nil {
			return err
		}
		next = (next + 1) % n
		return fw.Flush()
	}
	size := 0.0
	for i := range msgs {
		payload, err := marshal()
		if err != nil {
			return o, err
		}
		msgs[i] = append(ws.AppendHeader(nil, &transport.Message{Seq: 1 << 20, Intended: time.Unix(1_800_000_000, 0)}), payload...)
		if err := compress(); err != nil {
			return o, fmt.Errorf("plan: %s: %w", PermessageDeflate, err)
		}
		packed[i] = bytes.Clone(out.Bytes()[:out.Len()-4])
		size += float64(len(packed[i])-ws.HeaderLen) / float64(n)
	}
	if err := timeCompressor(&o, s.ID, msgs, packed, make([][]byte, n), compress, deflateTail, benchtime, count); err != nil {
		return o, err
	}
	o.PayloadBytes = size
	return o, nil
}

// deflateMessages is how many of a message corpus's messages
// MeasurePermessageDeflate compresses: their mean is the message's size.
const deflateMessages = 64

// MeasureSSEGzip measures option base (a codec's None option for
// scenario s, without Error) compressed with SSEGzip: c marshals s's
// value (its native value for a codec.Converter) sseGzipEvents+1 times,
// as serve marshals every message (a codec whose output varies from one
// marshal to the next, with maps in random order, varies here too); the
// payloads are framed as consecutive events of a stream (sse.AppendEvent:
// event type s.ID, binary payloads as base64, their times gap apart, the
// interval between two messages of a stream), and compress is
// sse.Deflate of each event with the one before as dictionary, as serve
// does once per published message; decompress is a receiver's inflate of
// those blocks with the event before in its window; each is timed in CPU
// time over count samples of at least benchtime (cpuTimeOp), cycling
// through the events. The whole event is compressed, framing included,
// so PayloadBytes is the mean compressed event and FramingBytes the
// event's own framing lines (its uncompressed text less the payload as
// sent), which Transport.FrameBytes counts with what HTTP adds (its
// chunks): W is then the compressed event and HTTP's framing. Binary is false: the compressed bytes are
// the response body, not base64. The efficiencies stay the codec's. A
// codec that cannot marshal s, or blocks that do not inflate back, is an
// error.
func MeasureSSEGzip(c codec.Codec, s scenario.Scenario, base Option, gap time.Duration, benchtime time.Duration, count int) (Option, error) {
	o := base
	o.Compressor, o.Binary = SSEGzip, false
	marshal, err := marshalNative(c, s)
	if err != nil {
		return o, err
	}
	// Messages of a stream some minutes in: ids and times whose last
	// digits change, as they do from one event to the next.
	t0 := time.Unix(1_764_390_000, 123_456_789)
	binary := c.Info().Binary
	texts := make([][]byte, sseGzipEvents+1)
	framing := 0.0
	for i := range texts {
		p, err := marshal()
		if err != nil {
			return o, err
		}
		texts[i] = sse.AppendEvent(nil, s.ID, &transport.Message{Seq: 12_344 + uint64(i), Intended: t0.Add(time.Duration(i) * gap), Payload: p}, binary)
		sent := len(p)
		if binary {
			sent = base64.StdEncoding.EncodedLen(len(p))
		}
		if i > 0 {
			framing += float64(len(texts[i])-sent) / sseGzipEvents
		}
	}
	packed := make([][]byte, sseGzipEvents)
	size := 0.0
	for i := range packed {
		if packed[i], err = sse.Deflate(texts[i+1], texts[i]); err != nil {
			return o, fmt.Errorf("plan: %s on %s with %s: %w", c.Info().ID, s.ID, SSEGzip, err)
		}
		size += float64(len(packed[i])) / sseGzipEvents
	}
	next := 0
	compress := func() error {
		next = (next + 1) % sseGzipEvents
		_, err := sse.Deflate(texts[next+1], texts[next])
		return err
	}
	if err := timeCompressor(&o, s.ID, texts[1:], packed, texts[:sseGzipEvents], compress, deflateTail[4:], benchtime, count); err != nil {
		return o, err
	}
	o.PayloadBytes, o.FramingBytes = size, framing
	return o, nil
}

// sseGzipEvents is how many consecutive events MeasureSSEGzip compresses,
// each with the one before as dictionary.
const sseGzipEvents = 32

// marshalNative returns a function that marshals s's value with c (its
// native value for a codec.Converter), as serve does for every message;
// for a message corpus (s.Messages) each call marshals the next message,
// in turn, as serve sends them. Its result is a copy the next call does
// not overwrite.
func marshalNative(c codec.Codec, s scenario.Scenario) (func() ([]byte, error), error) {
	b, err := codec.BindNew(c, s.Value(), s.New)
	if err != nil {
		return nil, fmt.Errorf("plan: %s on %s: %w", c.Info().ID, s.ID, err)
	}
	values := []any{s.Value()}
	if len(s.Messages) > 0 {
		values = values[:0]
		for _, m := range s.Messages {
			values = append(values, m.Value)
		}
	}
	if conv, ok := b.(codec.Converter); ok {
		for i := range values {
			if values[i], err = conv.ToNative(values[i]); err != nil {
				return nil, fmt.Errorf("plan: %s on %s: convert to native: %w", c.Info().ID, s.ID, err)
			}
		}
	}
	next := 0
	return func() ([]byte, error) {
		v := values[next%len(values)]
		next++
		payload, err := b.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("plan: %s on %s: marshal: %w", c.Info().ID, s.ID, err)
		}
		return bytes.Clone(payload), nil
	}, nil
}

// timeCompressor checks that packed[i], the deflate blocks compress makes
// of texts[i], inflate back to it (with tail appended and dicts[i] in the
// window, as a receiver reads them), then times compress and that
// inflate, cycling through i, into o.CompressNs and o.DecompressNs
// (cpuTimeOp). scenarioID and o.Codec/o.Compressor name a failure.
func timeCompressor(o *Option, scenarioID string, texts, packed, dicts [][]byte, compress func() error, tail string, benchtime time.Duration, count int) error {
	fr := flate.NewReader(nil)
	var in bytes.Buffer
	i := 0
	inflate := func() error {
		i = (i + 1) % len(packed)
		in.Reset()
		if err := fr.(flate.Resetter).Reset(io.MultiReader(bytes.NewReader(packed[i]), strings.NewReader(tail)), dicts[i]); err != nil {
			return err
		}
		_, err := in.ReadFrom(fr)
		return err
	}
	for range packed {
		if err := inflate(); err != nil || !bytes.Equal(in.Bytes(), texts[i]) {
			return fmt.Errorf("plan: %s on %s with %s: the compressed message does not inflate back (%v)", o.Codec, scenarioID, o.Compressor, err)
		}
	}
	var err error
	if o.CompressNs, err = cpuTimeOp(compress, benchtime, count); err != nil {
		return err
	}
	o.DecompressNs, err = cpuTimeOp(inflate, benchtime, count)
	return err
}
