package derive_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/avro"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/scenario"
)

// The schemas derived from serbench's own payload types encode to the
// same size as the hand-written ones (schema/proto/serbench.proto for
// codec protobuf, the .avsc files of codec/avro), or cannot be derived
// for the reason stated here.
func TestSeedSizes(t *testing.T) {
	reasons := map[string]string{
		// A uint64 ID of 2^63 or more: an Avro long does not hold it
		// (the hand-written schema has no row either: codec/avro
		// refuses uint64).
		"user-event/avro": "is 2^63 or more",
	}
	compared := 0
	for _, sc := range append(scenario.Seeds(), scenario.Annot()...) {
		for _, tc := range []struct {
			name          string
			hand, derived codec.Codec
		}{
			{"protobuf", protobuf.New(), derive.NewProtoCodec()},
			{"avro", avro.New(), derive.NewAvroCodec()},
		} {
			key := sc.ID + "/" + tc.name
			out, d, derr := roundTrip(t, tc.derived, sc.Value())
			if why, ok := reasons[key]; ok {
				if derr == nil || !strings.Contains(derr.Error(), why) {
					t.Errorf("%s: derived %d bytes, %v; want an error mentioning %q", key, d, derr, why)
				}
				continue
			}
			if derr != nil {
				t.Errorf("%s: derived: %v", key, derr)
				continue
			}
			if err := sc.Diff(out); err != nil {
				t.Errorf("%s: derived: %v", key, err)
			}
			_, h, herr := roundTrip(t, tc.hand, sc.Value())
			if errors.Is(herr, codec.ErrUnsupported) {
				continue // no hand-written schema for this payload
			}
			if herr != nil {
				t.Errorf("%s: hand-written: %v", key, herr)
				continue
			}
			compared++
			if h != d {
				t.Errorf("%s: hand-written schema %d bytes, derived %d", key, h, d)
			}
		}
	}
	if compared < 8 {
		t.Errorf("compared %d payloads, want the seeds and annotation workloads", compared)
	}
}

// FindHints on serbench's own payloads: no error where the proto schema
// derives, and no hint that makes the sample larger (an enum, a
// Timestamp, a varint for a double are never longer than what they
// replace; a narrower integer is the same varint or a shorter zigzag one).
func TestSeedHints(t *testing.T) {
	for _, sc := range append(scenario.Seeds(), scenario.Annot()...) {
		v := sc.Value()
		if _, err := derive.NewProtoCodec().Bind(v); err != nil {
			continue // user-event: its map of maps has no proto mapping
		}
		hs, err := derive.FindHints(v)
		if err != nil {
			t.Errorf("%s: %v", sc.ID, err)
			continue
		}
		for _, h := range hs {
			if h.After > h.Before {
				t.Errorf("%s: %s: %d → %d bytes", sc.ID, h.Path, h.Before, h.After)
			}
		}
		t.Logf("%s:\n%s", sc.ID, hs)
	}
}
