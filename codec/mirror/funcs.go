package mirror

import "github.com/serbench/serbench/codec"

// Funcs is a Codec for a generator whose methods live on the mirror types
// (easyjson, ffjson, msgp): Bind accepts the five seed types (an error
// wrapping codec.ErrUnsupported for any other), and each Binding converts
// to and from the mirror type (codec.Converter, through Binder) and calls
// Marshal with a pointer to a mirror value and Unmarshal with a new one.
type Funcs struct {
	Meta      codec.Info
	Marshal   codec.MarshalFunc
	Unmarshal codec.UnmarshalFunc
}

var _ codec.Codec = Funcs{}

// Info implements codec.Codec.
func (f Funcs) Info() codec.Info { return f.Meta }

// Bind implements codec.Codec.
func (f Funcs) Bind(sample any) (codec.Binding, error) {
	b, err := Bind(f.Meta.ID, sample)
	if err != nil {
		return nil, err
	}
	return funcBinding{Binder: b, m: f.Marshal, u: f.Unmarshal}, nil
}

type funcBinding struct {
	Binder
	m codec.MarshalFunc
	u codec.UnmarshalFunc
}

var (
	_ codec.Binding   = funcBinding{}
	_ codec.Converter = funcBinding{}
)

func (b funcBinding) Marshal(v any) ([]byte, error) { return b.m(v) }

func (b funcBinding) Unmarshal(data []byte) (any, error) {
	p := b.New()
	if err := b.u(data, p); err != nil {
		return nil, err
	}
	return p, nil
}
