package plan

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
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

// ServeCompressors returns the plan compressors `serbench serve` applies
// on via ("sse" or "ws"): [PermessageDeflate] on ws. serve's SSE gzip
// compresses each event's framed text once per stream with the previous
// event as context (transport/sse), which no plan compressor describes:
// none on sse.
func ServeCompressors(via string) []string {
	if via == "ws" {
		return []string{PermessageDeflate}
	}
	return nil
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
// marshals s's value once (its native value for a codec.Converter); the WebSocket message is ws's header and that
// payload; compress is DEFLATE level 1 with a sync flush and the 4-byte
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
	b, err := codec.BindNew(c, s.Value(), s.New)
	if err != nil {
		return o, fmt.Errorf("plan: %s on %s: %w", c.Info().ID, s.ID, err)
	}
	v := s.Value()
	if conv, ok := b.(codec.Converter); ok {
		if v, err = conv.ToNative(v); err != nil {
			return o, fmt.Errorf("plan: %s on %s: convert to native: %w", c.Info().ID, s.ID, err)
		}
	}
	payload, err := b.Marshal(v)
	if err != nil {
		return o, fmt.Errorf("plan: %s on %s: marshal: %w", c.Info().ID, s.ID, err)
	}
	msg := append(ws.AppendHeader(nil, &transport.Message{Seq: 1 << 20, Intended: time.Unix(1_800_000_000, 0)}), payload...)
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, deflateLevel)
	if err != nil {
		return o, fmt.Errorf("plan: %s: %w", PermessageDeflate, err)
	}
	compress := func() error {
		out.Reset()
		fw.Reset(&out)
		if _, err := fw.Write(msg); err != nil {
			return err
		}
		return fw.Flush()
	}
	if err := compress(); err != nil {
		return o, fmt.Errorf("plan: %s: %w", PermessageDeflate, err)
	}
	packed := bytes.Clone(out.Bytes()[:out.Len()-4])
	fr := flate.NewReader(nil)
	var in bytes.Buffer
	inflate := func() error {
		in.Reset()
		if err := fr.(flate.Resetter).Reset(io.MultiReader(bytes.NewReader(packed), strings.NewReader(deflateTail)), nil); err != nil {
			return err
		}
		_, err := in.ReadFrom(fr)
		return err
	}
	if err := inflate(); err != nil || !bytes.Equal(in.Bytes(), msg) {
		return o, fmt.Errorf("plan: %s on %s with %s: the compressed message does not inflate back (%v)", c.Info().ID, s.ID, PermessageDeflate, err)
	}
	if o.CompressNs, err = cpuTimeOp(compress, benchtime, count); err != nil {
		return o, err
	}
	if o.DecompressNs, err = cpuTimeOp(inflate, benchtime, count); err != nil {
		return o, err
	}
	o.PayloadBytes = float64(len(packed) - ws.HeaderLen)
	return o, nil
}

// median of sorted xs (not empty).
func median(xs []float64) float64 {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
