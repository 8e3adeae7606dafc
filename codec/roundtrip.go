package codec

import "fmt"

// The round trip in one place: Encode (scenario value to bytes), a Binding's
// Unmarshal, and Value (decoded result back to a scenario value) are the
// steps the runner times one by one (package bench), the load client takes
// per message (package load) and RoundTrip takes at once.

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
	data, err := Encode(b, v)
	if err != nil {
		return nil, err
	}
	out, err := b.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("unmarshal: %w", err)
	}
	return Value(b, out)
}

// Encode marshals v, a value of b's bound type, with b: converted first
// with ToNative when b is a Converter. Errors name the step that failed
// ("convert to native: ...", "marshal: ...").
func Encode(b Binding, v any) ([]byte, error) {
	if conv, ok := b.(Converter); ok {
		var err error
		if v, err = conv.ToNative(v); err != nil {
			return nil, fmt.Errorf("convert to native: %w", err)
		}
	}
	data, err := b.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	return data, nil
}

// Value turns out, a result of b.Unmarshal, into a value of b's bound type:
// FromNative when b is a Converter, out itself otherwise. An error is
// "convert from native: ...".
func Value(b Binding, out any) (any, error) {
	conv, ok := b.(Converter)
	if !ok {
		return out, nil
	}
	v, err := conv.FromNative(out)
	if err != nil {
		return nil, fmt.Errorf("convert from native: %w", err)
	}
	return v, nil
}
