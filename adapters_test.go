package serbench_test

import (
	"errors"
	"testing"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/mirror"
	"github.com/serbench/serbench/codec/protobuf/pb"
	"github.com/serbench/serbench/results"
)

// The mirror types carry msgp and easyjson methods generated in this
// repository, and pb.WSMessage is a protoc-gen-go message: they stand in
// for a user's generated code.
func TestAdapters(t *testing.T) {
	msg := &mirror.WSMessage{Uid: "u-1", Content: "hello", Timestamp: 1763890200000}
	toPB := func(m *mirror.WSMessage) *pb.WSMessage {
		return &pb.WSMessage{Uid: m.Uid, Content: m.Content, Timestamp: m.Timestamp}
	}
	fromPB := func(p *pb.WSMessage) *mirror.WSMessage {
		return &mirror.WSMessage{Uid: p.GetUid(), Content: p.GetContent(), Timestamp: p.GetTimestamp()}
	}
	extra := []codec.Codec{serbench.Msgp[mirror.WSMessage](), serbench.EasyJSON[mirror.WSMessage](), serbench.Proto(toPB, fromPB)}
	f, err := serbench.Options{Codecs: []string{"encoding/json", "msgp", "easyjson", "protobuf"}, Extra: extra}.Fidelity(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 4 {
		t.Fatalf("%d findings, want 4 (the adapters replace the built-in generators):\n%s", len(f), f)
	}
	for _, x := range f {
		if x.Status != serbench.OK {
			t.Errorf("%s: %s %v", x.Codec, x.Status, x.Err)
		}
	}
	// The protobuf adapter is a converter: Benchmark times convert apart.
	ops := bench.Prepare(extra[2], msg, nil, nil)
	if len(ops) != 3 || ops[2].Name != results.OpConvert || ops[2].Run == nil {
		t.Errorf("protobuf adapter ops: %+v, want marshal, unmarshal and convert", ops)
	}
	if err := ops[2].Run(2); err != nil {
		t.Error(err)
	}
	// Each adapter refuses any other type, with a reason.
	for _, c := range extra {
		if _, err := c.Bind(&Order{}); !errors.Is(err, codec.ErrUnsupported) {
			t.Errorf("%s: Bind(*Order) = %v, want ErrUnsupported", c.Info().ID, err)
		}
	}
}
