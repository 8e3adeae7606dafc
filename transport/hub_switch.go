package transport

import (
	"fmt"

	"github.com/serbench/serbench/codec"
)

// switchTarget is the second codec of a stream with a Switch, bound and
// with the scenario value converted for it.
type switchTarget struct {
	sw      Switch
	from    codec.Info
	info    codec.Info
	binding codec.Binding
	value   any
}

// bindSwitch prepares s.to when s's request has a Switch.
func (s *stream) bindSwitch() error {
	sw := s.req.Switch
	if sw.To == nil {
		return nil
	}
	b, err := sw.To.Bind(s.req.Scenario.Value())
	if err != nil {
		return fmt.Errorf("transport: bind %s to %s: %w", sw.To.Info().ID, s.req.Scenario.ID, err)
	}
	v := s.req.Scenario.Value()
	if conv, ok := b.(codec.Converter); ok {
		if v, err = conv.ToNative(v); err != nil {
			return fmt.Errorf("transport: convert %s for %s: %w", s.req.Scenario.ID, sw.To.Info().ID, err)
		}
	}
	s.to = &switchTarget{sw: sw, from: s.req.Codec.Info(), info: sw.To.Info(), binding: b, value: v}
	return nil
}

// encoderFor returns the binding and value that encode m (for a message
// corpus, its message m.Seq modulo their number), and whether the
// binding reuses its output, and on a switching stream tags m with the
// codec chosen (Switch.UsesTo; a switching stream sends a corpus's first
// message).
func (s *stream) encoderFor(m *Message) (codec.Binding, any, bool) {
	if s.to == nil {
		if n := uint64(len(s.values)); n > 0 {
			return s.binding, s.values[m.Seq%n], s.reuses
		}
		return s.binding, s.value, s.reuses
	}
	if s.to.sw.UsesTo(m.Seq, m.Intended.Sub(s.start)) {
		m.Codec, m.Binary = s.to.info.ID, s.to.info.Binary
		return s.to.binding, s.to.value, s.to.info.ReusesOutput
	}
	m.Codec, m.Binary = s.to.from.ID, s.to.from.Binary
	return s.binding, s.value, s.reuses
}
