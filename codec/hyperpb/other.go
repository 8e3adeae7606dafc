//go:build !(amd64 || arm64)

package hyperpb

import (
	"runtime"

	"github.com/serbench/serbench/codec"
)

// New returns the hyperpb codec, which on this platform refuses every
// type: hyperpb builds on amd64 and arm64 only.
func New() codec.Codec { return unsupported{} }

type unsupported struct{}

func (unsupported) Info() codec.Info { return info() }

func (unsupported) Bind(sample any) (codec.Binding, error) {
	return nil, codec.Unsupported(ID, "hyperpb builds on amd64 and arm64 only, not %s", runtime.GOARCH)
}
