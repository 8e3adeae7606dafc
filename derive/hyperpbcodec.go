//go:build amd64 || arm64

package derive

import (
	"fmt"
	"reflect"

	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/serbench/serbench/codec"
	hyperpbcodec "github.com/serbench/serbench/codec/hyperpb"
)

// NewHyperpbCodec returns the codec "hyperpb/derived": buf's hyperpb
// parser compiled at Bind from the descriptor DeriveProto derives from the
// sample's type, so a user's type goes through hyperpb with no .proto
// written and no code generated. hyperpb only parses: marshal is
// proto.Marshal over the parsed (read-only) message, as for the hyperpb
// row of serbench's own types. Its Bindings are codec.Converters: convert
// is the Go value to a dynamicpb.Message (as protobuf/derived's), its
// encoding and the parse into a hyperpb message, and back the fields read
// from the hyperpb message into a new Go value. Bind refuses a type
// DeriveProto cannot map (codec.ErrUnsupported). hyperpb builds on amd64
// and arm64 only; elsewhere Bind refuses every type.
func NewHyperpbCodec() codec.Codec { return hyperpbCodec{} }

type hyperpbCodec struct{ opts Options }

var _ codec.Codec = hyperpbCodec{}

func (hyperpbCodec) Info() codec.Info { return hyperpbInfo() }

func (c hyperpbCodec) Bind(sample any) (codec.Binding, error) {
	t, ps, err := c.opts.deriveSample(HyperpbID, sample)
	if err != nil {
		return nil, err
	}
	root := newMsgConv(ps.root, ps.File, map[*msg]*msgConv{})
	enc := &protoBinding{id: HyperpbID, goT: t, root: root,
		newMsg:  func() proto.Message { return dynamicpb.NewMessage(root.desc) },
		marshal: proto.Marshal, unmarshal: proto.Unmarshal}
	return &hyperpbcodec.Binding{ID: HyperpbID, Type: hyperpb.CompileMessageDescriptor(root.desc),
		// The Go value to a dynamicpb message, and its bytes.
		Encode: func(v any) ([]byte, error) {
			m, err := enc.ToNative(v)
			if err != nil {
				return nil, err
			}
			return enc.Marshal(m)
		},
		// The fields read from the parsed message into a new *T.
		Decode: func(m *hyperpb.Message) (any, error) {
			out := reflect.New(t)
			if err := root.fromPB(m.ProtoReflect(), out.Elem()); err != nil {
				return nil, fmt.Errorf("%s: %w", HyperpbID, err)
			}
			return out.Interface(), nil
		}}, nil
}
