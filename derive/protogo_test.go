package derive_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/internal/golden"
)

// The conversion code for Shipment (nested structs, time.Time, a map, a
// slice of structs, pointers, uint64, an embedded struct, an array) is
// the golden file; cmd/serbench's TestInitFlatBuffersScratchModule
// compiles it against protoc-gen-go's code and round-trips values through
// it.
func TestProtoGo(t *testing.T) {
	src, err := derive.ProtoGo(reflect.TypeFor[Shipment](), "derive_test", "github.com/serbench/serbench/derive_test", "example.com/shop/serbenchpb")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "shipment.pb.go.txt"), []byte(src))
	for _, want := range []string{"func serbenchToProto(v *Shipment) *serbenchpb.Shipment {",
		"func serbenchFromProto(m *serbenchpb.Shipment, v *Shipment) error {",
		"m.TrackingId = uint64(v.TrackingID)", "v.Priority = int8(m.Priority)",
		`return fmt.Errorf(".Checksum: %d bytes, more than the array's 4", len(m.Checksum))`} {
		if !strings.Contains(src, want) {
			t.Errorf("the code lacks %q", want)
		}
	}
}

// A type DeriveProto refuses is refused with DeriveProto's error; an
// anonymous struct, which the generated functions cannot name, is a
// FieldError.
func TestProtoGoErrors(t *testing.T) {
	type Anonymous struct {
		Inner struct{ A int }
	}
	_, err := derive.ProtoGo(reflect.TypeFor[Anonymous](), "derive_test", "github.com/serbench/serbench/derive_test", "example.com/x/serbenchpb")
	var de *derive.Error
	if !errors.As(err, &de) || len(de.Fields) != 1 || !strings.Contains(err.Error(), ".Inner (struct { A int }): an anonymous struct: the generated Protocol Buffers code needs a named type") {
		t.Errorf("anonymous struct: %v", err)
	}
	type Chan struct{ C chan int }
	if _, err := derive.ProtoGo(reflect.TypeFor[Chan](), "derive_test", "github.com/serbench/serbench/derive_test", "example.com/x/serbenchpb"); !errors.As(err, &de) || !strings.Contains(err.Error(), ".C (chan int)") {
		t.Errorf("a channel: %v", err)
	}
}

// Time is a user type with the name of the time helpers' type (a
// platform's own time wrapper); Timed holds it beside a time.Time.
type Time struct {
	At   time.Time
	Zone string
}

type Timed struct {
	Created time.Time
	Seen    Time
	History []Time
	Next    *Time
}

// The generated functions' names are unique whatever the user's types
// are called: a type named Time beside time.Time compiles in both files
// (no function declared twice).
func TestGoCodeNamesUnique(t *testing.T) {
	for name, gen := range map[string]func(reflect.Type, string, string, string) (string, error){
		"ProtoGo": derive.ProtoGo, "FlatBuffersGo": derive.FlatBuffersGo,
	} {
		for _, typ := range []reflect.Type{reflect.TypeFor[Timed](), reflect.TypeFor[Shipment]()} {
			src, err := gen(typ, "derive_test", "github.com/serbench/serbench/derive_test", "example.com/x/gen")
			if err != nil {
				t.Fatalf("%s(%s): %v", name, typ, err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, 0)
			if err != nil {
				t.Fatalf("%s(%s): %v", name, typ, err)
			}
			seen := map[string]bool{}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if seen[fd.Name.Name] {
						t.Errorf("%s(%s): %s declared twice", name, typ, fd.Name.Name)
					}
					seen[fd.Name.Name] = true
				}
			}
		}
	}
}

// Generated into another package than the type's (an alias of another
// package's type), the code names the root type and the nested ones with
// their package, and imports it.
func TestGoCodeForeignType(t *testing.T) {
	for name, gen := range map[string]func(reflect.Type, string, string, string) (string, error){
		"ProtoGo": derive.ProtoGo, "FlatBuffersGo": derive.FlatBuffersGo,
	} {
		src, err := gen(reflect.TypeFor[Shipment](), "user", "example.com/user", "example.com/user/gen")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, want := range []string{`"github.com/serbench/serbench/derive_test"`, "v *derive_test.Shipment", "derive_test.Address"} {
			if !strings.Contains(src, want) {
				t.Errorf("%s: the code lacks %q", name, want)
			}
		}
		if regexp.MustCompile(`[^.\w]Address\b`).MatchString(src) {
			t.Errorf("%s: an unqualified Address:\n%s", name, src)
		}
	}
}
