package gob

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
)

// StreamID is the stable ID of gob as a stream.
const StreamID = "gob/stream"

// NewStream returns gob as a long-lived stream: each Binding keeps one
// Encoder and one Decoder, as the two ends of one connection do, so type
// descriptors travel once, in the connection's first message, and every
// later message carries only the value.
//
// Framing: the Encoder writes into a buffer that Marshal empties before each
// message, so Marshal returns exactly one message; Unmarshal puts the bytes
// into the buffer the Decoder reads from. The first Marshal, Unmarshal or
// Preamble encodes the sample given to Bind once (the handshake: its type
// descriptors and its value, the message a stream sends first) and keeps it
// as the Binding's Preamble, so every Marshal returns a steady-state
// message. (Bind itself encodes nothing: a cyclic value would overflow the
// stack there, where no caller expects work.)
//
// Before its first Unmarshal the Decoder must have read a preamble: the
// sender's, given to ReadPreamble (what a transport does at the start of a
// connection: codec.Preambler), or else the Binding's own. Its own is
// right when the sender runs in the same process, because gob numbers
// types per process; across processes only the sender's preamble is.
//
// So the matrix times the steady state of a long stream on both sides, and
// the first message's extra bytes and time are measured apart
// (FirstMessage, BenchmarkStream in this package). A message that carries
// type descriptors the preamble did not (a value whose interface fields
// hold types the sample's did not) decodes once; decoding the same message
// again fails with "gob: duplicate type received", as it would on a real
// stream.
func NewStream() codec.Codec {
	registerOnce.Do(register)
	return streamCodec{}
}

type streamCodec struct{}

func (streamCodec) Info() codec.Info {
	return codec.Info{ID: StreamID, Module: "std", Version: codec.ModuleVersion("std"),
		API:    codec.APITyped,
		Format: "gob", Kind: codec.Reflect, Binary: true,
		Options: "one Encoder/Decoder per Binding (per connection): type descriptors sent once, in a preamble measured apart; map[string]any and []any registered",
		Time:    "ns, offset kept (time.Time's GobEncode)"}
}

func (streamCodec) Bind(sample any) (codec.Binding, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || reflect.ValueOf(sample).IsNil() {
		return nil, fmt.Errorf("%s: Bind needs a non-nil pointer, got %T", StreamID, sample)
	}
	b := &streamBinding{elem: t.Elem(), sample: sample}
	b.enc = gob.NewEncoder(&b.out)
	b.dec = gob.NewDecoder(&b.in)
	return b, nil
}

// streamBinding is one end of a gob stream each way: out and enc send, in
// and dec receive.
type streamBinding struct {
	elem     reflect.Type
	sample   any
	out, in  bytes.Buffer
	enc      *gob.Encoder
	dec      *gob.Decoder
	preamble []byte // nil until the sample is encoded
	primed   bool   // dec has read a preamble
}

var _ codec.Preambler = (*streamBinding)(nil)

// Preamble returns the stream's first message: the bound type's descriptors
// and the sample's value, encoded on the first call.
func (b *streamBinding) Preamble() ([]byte, error) {
	if b.preamble == nil {
		b.out.Reset()
		if err := b.enc.Encode(b.sample); err != nil {
			return nil, fmt.Errorf("%s: encode the preamble of %T: %w", StreamID, b.sample, err)
		}
		b.preamble = bytes.Clone(b.out.Bytes())
	}
	return b.preamble, nil
}

// ReadPreamble feeds p, a sender's Preamble, to the Decoder. It fails if
// the Decoder has already read one or p is not one whole gob message.
func (b *streamBinding) ReadPreamble(p []byte) error {
	if b.primed {
		return fmt.Errorf("%s: preamble already read", StreamID)
	}
	if _, err := b.decode(p); err != nil {
		return fmt.Errorf("%s: preamble: %w", StreamID, err)
	}
	b.primed = true
	return nil
}

func (b *streamBinding) Marshal(v any) ([]byte, error) {
	if _, err := b.Preamble(); err != nil {
		return nil, err
	}
	b.out.Reset()
	if err := b.enc.Encode(v); err != nil {
		return nil, fmt.Errorf("%s: marshal %T: %w", StreamID, v, err)
	}
	return bytes.Clone(b.out.Bytes()), nil
}

func (b *streamBinding) Unmarshal(data []byte) (any, error) {
	if !b.primed {
		p, err := b.Preamble()
		if err != nil {
			return nil, err
		}
		if err := b.ReadPreamble(p); err != nil {
			return nil, err
		}
	}
	p, err := b.decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes: %w", StreamID, len(data), err)
	}
	return p, nil
}

// decode reads one value, with the type definitions before it, from data,
// which must hold nothing else.
func (b *streamBinding) decode(data []byte) (any, error) {
	b.in.Reset()
	b.in.Write(data)
	p := reflect.New(b.elem).Interface()
	if err := b.dec.Decode(p); err != nil {
		return nil, err
	}
	if n := b.in.Len(); n > 0 {
		return nil, fmt.Errorf("%d trailing bytes after the value", n)
	}
	return p, nil
}

// FirstMessage returns what a stream of values like v sends: the first
// message (type descriptors and value) and a later one (the value alone).
// Their difference in length is what per-message gob pays on every message.
func FirstMessage(v any) (first, steady []byte, err error) {
	b, err := NewStream().Bind(v)
	if err != nil {
		return nil, nil, err
	}
	if first, err = b.(*streamBinding).Preamble(); err != nil {
		return nil, nil, err
	}
	steady, err = b.Marshal(v)
	return first, steady, err
}
