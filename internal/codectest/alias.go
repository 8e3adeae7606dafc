package codectest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unsafe"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// AliasID and CopyID are the IDs of the codecs Alias returns.
const (
	AliasID = "alias"
	CopyID  = "copy"
)

// Alias returns a JSON codec for *scenario.WSMessage (encoding/json
// underneath). With aliases true (ID AliasID) its Unmarshal points the
// decoded Uid at its bytes inside the input, as a decoder that skips the
// string copy does, so overwriting the input changes the value; with
// aliases false (ID CopyID) every decoded string is a copy.
func Alias(aliases bool) codec.Codec { return aliasCodec{aliases: aliases} }

type aliasCodec struct{ aliases bool }

func (c aliasCodec) Info() codec.Info {
	id := CopyID
	if c.aliases {
		id = AliasID
	}
	return codec.Info{ID: id, Module: "std", Format: "JSON", Kind: codec.Reflect,
		Options: fmt.Sprintf("test codec: decoded Uid aliases the input: %v", c.aliases)}
}

func (c aliasCodec) Bind(sample any) (codec.Binding, error) {
	if _, ok := sample.(*scenario.WSMessage); !ok {
		return nil, codec.Unsupported(c.Info().ID, "only *scenario.WSMessage, not %T", sample)
	}
	return aliasBinding(c), nil
}

type aliasBinding aliasCodec

func (aliasBinding) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

func (b aliasBinding) Unmarshal(data []byte) (any, error) {
	m := new(scenario.WSMessage)
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("alias: %w", err)
	}
	if i := bytes.Index(data, []byte(m.Uid)); b.aliases && m.Uid != "" && i >= 0 {
		m.Uid = unsafe.String(&data[i], len(m.Uid))
	}
	return m, nil
}
