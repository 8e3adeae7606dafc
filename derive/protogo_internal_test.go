package derive

import (
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/pluginpb"
)

type clashInner struct {
	N int `json:"n"`
}

// clashes has fields whose Go names protoc-gen-go changes: names of the
// methods every message has, a getter clash, a proto3 optional field's
// synthetic oneof, digits and underscores.
type clashes struct {
	Reset       string      `json:"reset"`
	Descriptor  int32       `json:"descriptor"`
	X           string      `json:"x"`
	GetX        string      `json:"get_x"`
	Price       *float64    `json:"price"`
	XPrice      bool        `json:"x_price"`
	A1b         int64       `json:"a1b"`
	Under       string      `json:"a_1"`
	HTTPCode    int         // http_code
	Lead        string      `json:"_lead"`
	When        time.Time   `json:"when"`
	Inner       *clashInner `json:"inner"`
	Tags        []string    `json:"tags"`
	ByName      map[string]clashInner
	DoubleUnder string `json:"a__b"`
}

// The Go names ProtoGo's code uses are protoc-gen-go's: the test hands the
// derived descriptors to protogen (protoc-gen-go's own naming, as a
// plugin sees it, with no protoc run) and compares every message's and
// field's name.
func TestGoNamesMatchProtogen(t *testing.T) {
	type nested struct {
		Matrix [][]float64
		Deep   map[string]map[string][]clashInner
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[clashes](), reflect.TypeFor[hintRound](), reflect.TypeFor[nested]()} {
		ps, err := DeriveProto(typ)
		if err != nil {
			t.Fatal(err)
		}
		file := protodesc.ToFileDescriptorProto(ps.File)
		req := &pluginpb.CodeGeneratorRequest{
			FileToGenerate: []string{file.GetName()},
			Parameter:      proto.String("M" + file.GetName() + "=example.com/x/serbenchpb"),
			ProtoFile:      []*descriptorpb.FileDescriptorProto{protodesc.ToFileDescriptorProto(timestamppb.File_google_protobuf_timestamp_proto), file},
		}
		plugin, err := protogen.Options{}.New(req)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*protogen.Message{}
		for _, f := range plugin.Files {
			for _, m := range f.Messages {
				byName[string(m.Desc.Name())] = m
			}
		}
		m, err := newMapper(typ, Proto, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.proto(); err != nil {
			t.Fatal(err)
		}
		for _, w := range m.wrapName {
			pm := byName[w]
			if pm == nil {
				t.Errorf("%s: protogen has no wrapper message %s", typ, w)
			} else if goCamel(w) != pm.GoIdent.GoName || len(pm.Fields) != 1 || pm.Fields[0].GoName != "Value" {
				t.Errorf("%s: wrapper %s: Go name %s, protogen %s with %d fields", typ, w, goCamel(w), pm.GoIdent.GoName, len(pm.Fields))
			}
		}
		if typ.Name() == "nested" && len(m.wrapName) != 3 {
			t.Errorf("nested: %d wrappers, want 3: %v", len(m.wrapName), m.wrapName)
		}
		g := &protoGo{goFile: newGoFile(m, "", nil)}
		for _, x := range m.b.msgs {
			pm := byName[x.name]
			if pm == nil {
				t.Fatalf("%s: protogen has no message %s", typ, x.name)
			}
			if got := goCamel(x.name); got != pm.GoIdent.GoName {
				t.Errorf("%s: message %s: Go name %s, protogen %s", typ, x.name, got, pm.GoIdent.GoName)
			}
			names := g.goNames(x)
			if len(names) != len(pm.Fields) {
				t.Fatalf("%s: %d fields, protogen %d", x.name, len(names), len(pm.Fields))
			}
			for i, f := range pm.Fields {
				if names[i] != f.GoName {
					t.Errorf("%s.%s: Go name %s, protogen %s", x.name, f.Desc.Name(), names[i], f.GoName)
				}
			}
		}
	}
}
