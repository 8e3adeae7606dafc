package codec

import "fmt"

// RoundTrip binds c to v's type, converts v if the binding is a Converter,
// marshals, unmarshals and converts back. It returns the decoded value, which
// callers compare with v (package fidelity). Errors name the step that failed.
func RoundTrip(c Codec, v any) (any, error) {
	b, err := c.Bind(v)
	if err != nil {
		return nil, err
	}
	return RoundTripBinding(b, v)
}

// RoundTripBinding is RoundTrip with a Binding already made. When the
// codec reuses its output (codec.Info.ReusesOutput), the value returned may
// be b's own: compare or copy it before the next call on b.
func RoundTripBinding(b Binding, v any) (any, error) {
	in := v
	conv, isConv := b.(Converter)
	if isConv {
		var err error
		if in, err = conv.ToNative(v); err != nil {
			return nil, fmt.Errorf("convert to native: %w", err)
		}
	}
	data, err := b.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	out, err := b.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("unmarshal: %w", err)
	}
	if isConv {
		if out, err = conv.FromNative(out); err != nil {
			return nil, fmt.Errorf("convert from native: %w", err)
		}
	}
	return out, nil
}
