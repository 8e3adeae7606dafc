package server_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/protobuf/pb"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
)

func TestProtobufJSDescriptor(t *testing.T) {
	b, err := server.ProtobufJSDescriptor((&pb.UserEvent{}).ProtoReflect().Descriptor().ParentFile())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	get := func(path ...string) any {
		var v any = doc
		for _, p := range path {
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, p)
			}
			v = m[p]
		}
		return v
	}
	msg := func(pkg ...string) []string {
		var p []string
		for _, s := range pkg {
			p = append(p, "nested", s)
		}
		return p
	}
	for _, tc := range []struct {
		path []string
		want any
	}{
		{append(msg("serbench", "SSEEvent"), "fields", "meta"), map[string]any{"id": 5.0, "keyType": "string", "type": "string"}},
		{append(msg("serbench", "UserEvent"), "fields", "event_id"), map[string]any{"id": 1.0, "type": "uint64"}},
		{append(msg("serbench", "UserEvent"), "fields", "tags"), map[string]any{"id": 7.0, "type": "string", "rule": "repeated"}},
		{append(msg("serbench", "UserEvent"), "fields", "occurred_at"), map[string]any{"id": 5.0, "type": ".google.protobuf.Timestamp"}},
		{append(msg("serbench", "UserEvent"), "fields", "attributes"), map[string]any{"id": 9.0, "keyType": "string", "type": ".serbench.StringMap"}},
		{append(msg("google", "protobuf", "Timestamp"), "fields", "nanos"), map[string]any{"id": 2.0, "type": "int32"}},
	} {
		if got := get(tc.path...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestBrowserCodecs(t *testing.T) {
	rv := transport.Resolver{Codecs: all.Registry(), Scenarios: scenario.Seeds()}
	ss, _ := scenario.Select(rv.Scenarios, []string{"ws-message"})
	got := map[string]server.BrowserCodec{}
	for _, bc := range server.BrowserCodecs(rv, ss[0]) {
		got[bc.ID] = bc
	}
	for id, want := range map[string]string{"encoding/json": "json", "sonic": "json", "msgpack": "msgpack", "msgp": "msgpack",
		"cbor": "cbor", "protobuf": "protobuf", "gogoproto": "protobuf", "gob": "", "wire": "", "memmove": ""} {
		bc := got[id]
		if bc.Decoder != want || (want == "") != (bc.Reason != "") {
			t.Errorf("%s: decoder %q reason %q, want decoder %q", id, bc.Decoder, bc.Reason, want)
		}
	}
	if p := got["vtprotobuf"].ProtoType; p != "serbench.WSMessage" {
		t.Errorf("vtprotobuf proto type %q, want serbench.WSMessage", p)
	}
}
