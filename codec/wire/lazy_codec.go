package wire

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// bindLazy returns the "wire/lazy" Binding for sample's type: wire's
// Binding for Marshal, a view the Binding owns for Unmarshal.
func bindLazy(id string, sample any) (codec.Binding, error) {
	base := bindingBase{id: id}
	switch sample.(type) {
	case *scenario.SSEEvent:
		return &lazyBinding[scenario.SSEEvent, SSEEventView]{Binding: &sseBinding{bindingBase: base},
			id: id, view: DecMode.ViewSSEEvent, copyOut: (*SSEEventView).Copy}, nil
	case *scenario.UserEvent:
		return &lazyBinding[scenario.UserEvent, UserEventView]{Binding: &userEventBinding{bindingBase: base},
			id: id, view: DecMode.ViewUserEvent, copyOut: (*UserEventView).Copy}, nil
	case *scenario.WSMessage:
		return &lazyBinding[scenario.WSMessage, WSMessageView]{Binding: &wsBinding{bindingBase: base},
			id: id, view: DecMode.ViewWSMessage, copyOut: (*WSMessageView).Copy}, nil
	case *scenario.Annotation:
		return &lazyBinding[scenario.Annotation, AnnotationView]{Binding: &annotationBinding{bindingBase: base},
			id: id, view: DecMode.ViewAnnotation, copyOut: (*AnnotationView).Copy}, nil
	case *scenario.UserProfile:
		return &lazyBinding[scenario.UserProfile, UserProfileView]{Binding: &profileBinding{bindingBase: base},
			id: id, view: DecMode.ViewUserProfile, copyOut: (*UserProfileView).Copy}, nil
	}
	return nil, codec.Unsupported(id, "no hand-written encoder for %T", sample)
}

// lazyBinding is wire's Binding (Marshal) with an Unmarshal that fills the
// view V of scenario type T.
type lazyBinding[T, V any] struct {
	codec.Binding
	id      string
	mode    DecMode
	v       V
	view    func(DecMode, []byte, *V) error
	copyOut func(*V) *T
}

var (
	_ codec.Binding   = (*lazyBinding[scenario.SSEEvent, SSEEventView])(nil)
	_ codec.Converter = (*lazyBinding[scenario.SSEEvent, SSEEventView])(nil)
)

// Unmarshal checks data and returns a *V view of it that the Binding owns:
// valid until the next Unmarshal and while data stays unchanged.
func (b *lazyBinding[T, V]) Unmarshal(data []byte) (any, error) {
	if err := b.view(b.mode, data, &b.v); err != nil {
		return nil, err
	}
	return &b.v, nil
}

// ToNative returns v, a non-nil *T, unchanged: Marshal takes the scenario
// value.
func (b *lazyBinding[T, V]) ToNative(v any) (any, error) {
	if p, ok := v.(*T); ok && p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("%s: ToNative wants a non-nil %T, got %T", b.id, (*T)(nil), v)
}

// FromNative copies a *V view into a new *T; a *T it returns as it is.
func (b *lazyBinding[T, V]) FromNative(v any) (any, error) {
	switch x := v.(type) {
	case *V:
		if x != nil {
			return b.copyOut(x), nil
		}
	case *T:
		if x != nil {
			return x, nil
		}
	}
	return nil, fmt.Errorf("%s: FromNative wants a non-nil %T or %T, got %T", b.id, (*V)(nil), (*T)(nil), v)
}
