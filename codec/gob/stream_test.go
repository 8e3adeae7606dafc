package gob_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/gob"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// TestStreamSendsDescriptorsOnce checks that gob/stream's messages are
// shorter than per-message gob's by the type descriptors, which only the
// preamble carries, and that a receiver given the sender's preamble decodes
// every later message.
func TestStreamSendsDescriptorsOnce(t *testing.T) {
	for _, s := range scenario.Seeds() {
		t.Run(s.ID, func(t *testing.T) {
			v := s.Value()
			first, steady, err := gob.FirstMessage(v)
			if err != nil {
				t.Fatal(err)
			}
			pb, err := gob.New().Bind(v)
			if err != nil {
				t.Fatal(err)
			}
			perMsg, err := codec.Encode(pb, v)
			if err != nil {
				t.Fatal(err)
			}
			if len(steady) >= len(perMsg) || len(first) != len(perMsg) {
				t.Errorf("stream: first %d bytes, then %d; per-message gob %d", len(first), len(steady), len(perMsg))
			}
			tx, err := gob.NewStream().Bind(v)
			if err != nil {
				t.Fatal(err)
			}
			rx, err := gob.NewStream().Bind(v)
			if err != nil {
				t.Fatal(err)
			}
			p, err := tx.(codec.Preambler).Preamble()
			if err != nil {
				t.Fatal(err)
			}
			if err := rx.(codec.Preambler).ReadPreamble(p); err != nil {
				t.Fatal(err)
			}
			if err := rx.(codec.Preambler).ReadPreamble(p); err == nil {
				t.Error("a second preamble was accepted")
			}
			for range 3 {
				data, err := tx.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if len(data) != len(steady) { // map order varies, lengths do not
					t.Errorf("message of %d bytes, want the steady %d", len(data), len(steady))
				}
				got, err := rx.Unmarshal(data)
				if err != nil {
					t.Fatal(err)
				}
				if err := fidelity.Diff(v, got); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestStreamRejectsTrailingBytes(t *testing.T) {
	v := scenario.NewWSMessage()
	b, err := gob.NewStream().Bind(v)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Unmarshal(append(data, data...)); err == nil {
		t.Error("two messages accepted as one")
	}
}
