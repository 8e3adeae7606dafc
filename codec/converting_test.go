package codec_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

type source struct{ N int }

// text is a generated type with its own encoding methods.
type text struct{ S string }

func (t *text) Marshal() ([]byte, error) { return []byte(t.S), nil }
func (t *text) Unmarshal(data []byte) error {
	if len(data) == 0 {
		return errors.New("empty")
	}
	t.S = string(data)
	return nil
}

type textMethods interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

var textCodec = codec.Converting[textMethods]{
	Meta: codec.Info{ID: "text"},
	Convs: []codec.Conv{codec.NewConv(
		func(s *source) *text { return &text{S: strconv.Itoa(s.N)} },
		func(t *text) *source { n, _ := strconv.Atoi(t.S); return &source{N: n} },
	)},
	Missing:   "no text type for %T",
	Marshal:   textMethods.Marshal,
	Unmarshal: func(data []byte, m textMethods) error { return m.Unmarshal(data) },
}

func TestConverting(t *testing.T) {
	b, err := textCodec.Bind(&source{})
	if err != nil {
		t.Fatal(err)
	}
	conv, ok := b.(codec.Converter)
	if !ok {
		t.Fatalf("binding %T is not a Converter", b)
	}
	native, err := conv.ToNative(&source{N: 42})
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(native)
	if err != nil || string(data) != "42" {
		t.Fatalf("Marshal = %q, %v; want \"42\"", data, err)
	}
	v, err := b.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	back, err := conv.FromNative(v)
	if err != nil || back.(*source).N != 42 {
		t.Fatalf("FromNative = %+v, %v; want N 42", back, err)
	}
	if _, err := b.Unmarshal(nil); err == nil || err.Error() != "empty" {
		t.Errorf("Unmarshal(nil) = %v, want the generated code's error", err)
	}
	if _, err := b.Marshal(&source{N: 1}); err == nil || !strings.Contains(err.Error(), "text: Marshal wants a generated value from ToNative, got *codec_test.source") {
		t.Errorf("Marshal of a source value: %v, want an error naming the type", err)
	}
	if _, err := conv.ToNative((*source)(nil)); err == nil {
		t.Error("ToNative accepted a nil *source")
	}
	if _, err := conv.FromNative(&source{}); err == nil {
		t.Error("FromNative accepted a *source")
	}
	_, err = textCodec.Bind(new(int))
	if !errors.Is(err, codec.ErrUnsupported) || err.Error() != "text: not supported: no text type for *int" {
		t.Errorf("Bind(*int) = %v, want \"text: not supported: no text type for *int\"", err)
	}
}
