package opaque_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/protobuf/opaque"
	"github.com/serbench/serbench/codec/protobuf/opaquepb"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/scenario"
)

// The Opaque API types read what the open-struct types write and the other
// way round: one schema, one wire format.
func TestSameWireAsProtobuf(t *testing.T) {
	codectest.CrossDecodeSeeds(t, protobuf.New(), opaque.New())
}

// The generated types are the Opaque API's: no exported fields but the
// generator's XXX_ bookkeeping, and lazy decoding (XXX_lazyUnmarshalInfo)
// on the messages with message fields.
func TestOpaqueTypes(t *testing.T) {
	for _, tc := range []struct {
		v    any
		lazy bool
	}{{opaquepb.SSEEvent{}, false}, {opaquepb.UserEvent{}, true}, {opaquepb.UserProfile{}, true}} {
		lazy := false
		for f := range reflect.TypeOf(tc.v).Fields() {
			switch {
			case f.Name == "XXX_lazyUnmarshalInfo":
				lazy = true
			case f.IsExported() && !strings.HasPrefix(f.Name, "XXX_"):
				t.Errorf("%T has exported field %s: not generated with the Opaque API", tc.v, f.Name)
			}
		}
		if lazy != tc.lazy {
			t.Errorf("%T: lazy decoding %v, want %v", tc.v, lazy, tc.lazy)
		}
	}
}

func TestRefusesAndRejects(t *testing.T) {
	if _, err := opaque.New().Bind(new(int)); !errors.Is(err, codec.ErrUnsupported) {
		t.Errorf("Bind(*int): %v, want ErrUnsupported", err)
	}
	b, err := opaque.New().Bind(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Marshal(&opaquepb.SSEEvent{}); err == nil {
		t.Error("a ws-message binding marshalled an SSEEvent")
	}
	if _, err := b.Unmarshal([]byte{0x0a, 0x05, 'a'}); err == nil {
		t.Error("a truncated message decoded")
	}
}
