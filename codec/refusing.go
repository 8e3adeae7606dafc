package codec

import "reflect"

// Refusing is a Codec that refuses some types in Bind before the Codec it
// wraps sees them: types a reflection library mishandles (it overflows the
// stack on a recursive type, cannot fill a pointer field, ...) become n/a
// cells with the reason instead of crashes or failed round trips.
type Refusing struct {
	Codec
	// Refuse returns why the codec cannot take values of type t, the
	// sample's type, as a phrase following the type ("holds interface
	// values, which ..."), or "" when it can.
	Refuse func(t reflect.Type) string
}

// Bind implements Codec: an error wrapping ErrUnsupported, with Refuse's
// reason, for a refused type; the wrapped Codec's Bind otherwise.
func (r Refusing) Bind(sample any) (Binding, error) { return r.BindNew(sample, nil) }

// BindNew implements NewBinder: it refuses as Bind does, and passes
// newValue on to the wrapped Codec (see the function BindNew).
func (r Refusing) BindNew(sample any, newValue func() any) (Binding, error) {
	if t := reflect.TypeOf(sample); t != nil {
		if why := r.Refuse(t); why != "" {
			return nil, Unsupported(r.Info().ID, "%T %s", sample, why)
		}
	}
	return BindNew(r.Codec, sample, newValue)
}
