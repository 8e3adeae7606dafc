//go:build amd64 || arm64

package hyperpb_test

import (
	"errors"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/hyperpb"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/scenario"
)

// hyperpb parses what the protobuf row writes, and the protobuf row
// parses what hyperpb's Marshal writes: the same messages.
func TestSameWireAsProtobuf(t *testing.T) {
	codectest.CrossDecodeSeeds(t, protobuf.New(), hyperpb.New())
}

func TestRefusesAndRejects(t *testing.T) {
	if _, err := hyperpb.New().Bind(new(int)); !errors.Is(err, codec.ErrUnsupported) {
		t.Errorf("Bind(*int): %v, want ErrUnsupported", err)
	}
	b, err := hyperpb.New().Bind(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Unmarshal([]byte{0x0a, 0x05, 'a'}); err == nil { // a string field of 5 bytes holding 1
		t.Error("a truncated message parsed")
	}
	if _, err := b.Marshal("not a message"); err == nil {
		t.Error("Marshal took a string")
	}
}
