//go:build !(amd64 || arm64)

package derive

import "github.com/serbench/serbench/codec"

// NewHyperpbCodec returns the codec "hyperpb/derived"; hyperpb builds on
// amd64 and arm64 only, so here Bind refuses every type.
func NewHyperpbCodec() codec.Codec { return hyperpbCodec{} }

type hyperpbCodec struct{ opts Options }

func (hyperpbCodec) Info() codec.Info { return hyperpbInfo() }

func (hyperpbCodec) Bind(any) (codec.Binding, error) {
	return nil, codec.Unsupported(HyperpbID, "hyperpb builds on amd64 and arm64 only")
}
