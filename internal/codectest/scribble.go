// Package codectest holds fake codecs for the tests of the packages that
// drive codecs (bench, load, transport): codecs that exercise a corner of the
// codec.Binding contract harder than any real codec does.
package codectest

import (
	"encoding/json"
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// ScribbleID is the ID of the codec Scribble returns.
const ScribbleID = "scribble"

// Scribbled is what Scribble's Bindings write over their previous results.
const Scribbled = "overwritten by the next call"

// Scribble returns a JSON codec for *scenario.WSMessage that takes
// codec.Info.ReusesOutput to the limit: each Marshal first overwrites every
// byte of the slice the previous Marshal returned, and each Unmarshal first
// overwrites every field of the value the previous Unmarshal returned. A
// caller that keeps either past the next call on the same Binding, instead
// of copying or finishing with it first, sees Scribbled (or 'x' bytes) and
// fails its round-trip check.
func Scribble() codec.Codec { return scribble{} }

type scribble struct{}

func (scribble) Info() codec.Info {
	return codec.Info{ID: ScribbleID, Module: "std", Format: "JSON", Kind: codec.Reflect, ReusesOutput: true,
		Options: "test codec: overwrites its previous Marshal output and Unmarshal value on the next call"}
}

func (scribble) Bind(sample any) (codec.Binding, error) {
	if _, ok := sample.(*scenario.WSMessage); !ok {
		return nil, codec.Unsupported(ScribbleID, "only *scenario.WSMessage, not %T", sample)
	}
	return &scribbleBinding{}, nil
}

type scribbleBinding struct {
	out  []byte              // the previous Marshal's result
	prev *scenario.WSMessage // the previous Unmarshal's result
}

func (b *scribbleBinding) Marshal(v any) ([]byte, error) {
	for i := range b.out {
		b.out[i] = 'x'
	}
	m, ok := v.(*scenario.WSMessage)
	if !ok {
		return nil, fmt.Errorf("scribble: Marshal wants *scenario.WSMessage, got %T", v)
	}
	enc, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("scribble: %w", err)
	}
	b.out = append(b.out[:0], enc...)
	return b.out, nil
}

func (b *scribbleBinding) Unmarshal(data []byte) (any, error) {
	if b.prev != nil {
		*b.prev = scenario.WSMessage{Uid: Scribbled, Content: Scribbled, Timestamp: -1}
	}
	v := new(scenario.WSMessage)
	if err := json.Unmarshal(data, v); err != nil {
		return nil, fmt.Errorf("scribble: %w", err)
	}
	b.prev = v
	return v, nil
}
