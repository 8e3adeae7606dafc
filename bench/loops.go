package bench

import (
	"fmt"
	"runtime"

	"github.com/serbench/serbench/codec"
)

// A bindFunc returns a new Binding of one codec to one sample and the value
// its Marshal takes (the sample, or its native form for a
// codec.Converter).
type bindFunc func() (codec.Binding, any, error)

// binder returns the bindFunc of c and sample; newValue, when not nil,
// makes the values Unmarshal decodes into (codec.BindNew).
func binder(c codec.Codec, sample any, newValue func() any) bindFunc {
	return func() (codec.Binding, any, error) {
		b, err := codec.BindNew(c, sample, newValue)
		if err != nil {
			return nil, nil, err
		}
		if conv, ok := b.(codec.Converter); ok {
			in, err := conv.ToNative(sample)
			if err != nil {
				return nil, nil, fmt.Errorf("convert to native: %w", err)
			}
			return b, in, nil
		}
		return b, sample, nil
	}
}

// The loops below are a cell's newFn: each makes a Binding of its own and
// returns the timed function, which runs n operations and keeps the last
// result alive to the end of the call (runtime.KeepAlive), so the work
// cannot be optimised away. No result outlives the call: a stored result
// per cell would add every cell's decoded value to the live heap, the GC
// condition of the run (Options.LiveHeap).

// marshalLoop times Marshal of the bound value.
func marshalLoop(bind bindFunc) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		b, in, err := bind()
		if err != nil {
			return nil, err
		}
		return func(n int) error {
			var out []byte
			var err error
			for range n {
				if out, err = b.Marshal(in); err != nil {
					return err
				}
			}
			runtime.KeepAlive(out)
			return nil
		}, nil
	}
}

// unmarshalLoop times Unmarshal of data.
func unmarshalLoop(bind bindFunc, data []byte) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		b, _, err := bind()
		if err != nil {
			return nil, err
		}
		return func(n int) error {
			var v any
			var err error
			for range n {
				if v, err = b.Unmarshal(data); err != nil {
					return err
				}
			}
			runtime.KeepAlive(v)
			return nil
		}, nil
	}
}

// convertLoop times ToNative of sample then FromNative, on a Binding that
// is a codec.Converter.
func convertLoop(bind bindFunc, sample any) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		b, _, err := bind()
		if err != nil {
			return nil, err
		}
		conv := b.(codec.Converter)
		return func(n int) error {
			var v any
			var err error
			for range n {
				if v, err = conv.ToNative(sample); err != nil {
					return err
				}
				if v, err = conv.FromNative(v); err != nil {
					return err
				}
			}
			runtime.KeepAlive(v)
			return nil
		}, nil
	}
}
