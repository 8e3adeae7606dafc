package codec_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

// groupFixture is a registry of stand-in codecs, one per way a group is
// derived from Info.
func groupFixture(t *testing.T) *codec.Registry {
	t.Helper()
	infos := []codec.Info{
		{ID: "encoding/json", Format: "JSON", Kind: codec.Reflect, Default: true},
		{ID: "easyjson", Format: "JSON", Kind: codec.Codegen},
		{ID: "msgpack", Format: "MessagePack", Kind: codec.Reflect, Binary: true, Default: true},
		{ID: "msgp", Format: "MessagePack", Kind: codec.Codegen, Binary: true},
		{ID: "ugorji/cbor", Format: "CBOR", Kind: codec.Reflect, Binary: true},
		{ID: "capnp", Format: "Cap'n Proto", Kind: codec.Codegen, Binary: true},
		{ID: "wire", Format: "serbench wire v1", Kind: codec.Manual, Binary: true, Default: true},
		{ID: "memmove", Format: "serbench wire v1 (copied, not encoded)", Kind: codec.Reference, Binary: true, Default: true},
	}
	var cs []codec.Codec
	for _, i := range infos {
		cs = append(cs, codec.Funcs{Meta: i})
	}
	r, err := codec.NewRegistry(cs...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ids(cs []codec.Codec) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Info().ID)
	}
	return out
}

func TestResolve(t *testing.T) {
	r := groupFixture(t)
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"default"}, "encoding/json,msgpack,wire,memmove"},
		{[]string{"all"}, "encoding/json,easyjson,msgpack,msgp,ugorji/cbor,capnp,wire,memmove"},
		{[]string{"json"}, "encoding/json,easyjson"},
		{[]string{"json", "wire"}, "encoding/json,easyjson,wire"},
		{[]string{"wire", "json", "encoding/json"}, "wire,encoding/json,easyjson"}, // order given, each once
		{[]string{"msgpack"}, "msgpack"},                                           // the codec ID wins
		{[]string{"group:msgpack"}, "msgpack,msgp"},
		{[]string{"cbor"}, "ugorji/cbor"},
		{[]string{"schema"}, "capnp"}, // easyjson and msgp are generated from Go types
		{[]string{"binary"}, "msgpack,msgp,ugorji/cbor,capnp,wire"},
	} {
		got, err := r.Resolve(tc.names)
		if err != nil {
			t.Errorf("%v: %v", tc.names, err)
			continue
		}
		if s := strings.Join(ids(got), ","); s != tc.want {
			t.Errorf("%v = %s, want %s", tc.names, s, tc.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	r := groupFixture(t)
	_, err := r.Resolve([]string{"nope", "json", "group:wire"})
	if err == nil || !strings.Contains(err.Error(), `unknown codec "nope", "group:wire"`) || !strings.Contains(err.Error(), "groups: default, all, json") {
		t.Errorf("err = %v", err)
	}
	if _, err := r.Resolve(nil); err == nil {
		t.Error("no names: no error")
	}
	empty, err := codec.NewRegistry(codec.Funcs{Meta: codec.Info{ID: "x", Format: "JSON"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.Resolve([]string{"cbor"}); err == nil || !strings.Contains(err.Error(), "no codec in cbor") {
		t.Errorf("empty group: err = %v", err)
	}
}

func TestGroupsOf(t *testing.T) {
	r := groupFixture(t)
	want := map[string][]string{
		"encoding/json": {"default", "json"},
		"msgp":          {"msgpack", "binary"},
		"capnp":         {"schema", "binary"},
		"memmove":       {"default"},
	}
	for id, w := range want {
		c, _ := r.Lookup(id)
		if got := codec.GroupsOf(c.Info()); !slices.Equal(got, w) {
			t.Errorf("GroupsOf(%s) = %v, want %v", id, got, w)
		}
	}
	if _, ok := codec.LookupGroup("group:json"); !ok {
		t.Error(`LookupGroup("group:json") not found`)
	}
}
