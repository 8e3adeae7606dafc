package derive_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/internal/golden"
)

// The conversion code for Shipment (nested structs, time.Time, a map, a
// slice of structs, pointers, uint64, an embedded struct, an array) is
// the golden file; cmd/serbench's TestInitFlatBuffersScratchModule
// compiles it against protoc-gen-go's code and round-trips values through
// it.
func TestProtoGo(t *testing.T) {
	src, err := derive.ProtoGo(reflect.TypeFor[Shipment](), "derive_test", "example.com/shop/serbenchpb")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "shipment.pb.go.txt"), []byte(src))
	for _, want := range []string{"func serbenchPBToShipment(v *Shipment) *serbenchpb.Shipment {",
		"func serbenchPBFromShipment(m *serbenchpb.Shipment, v *Shipment) error {",
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
	_, err := derive.ProtoGo(reflect.TypeFor[Anonymous](), "derive_test", "example.com/x/serbenchpb")
	var de *derive.Error
	if !errors.As(err, &de) || len(de.Fields) != 1 || !strings.Contains(err.Error(), ".Inner (struct { A int }): an anonymous struct: the generated Protocol Buffers code needs a named type") {
		t.Errorf("anonymous struct: %v", err)
	}
	type Chan struct{ C chan int }
	if _, err := derive.ProtoGo(reflect.TypeFor[Chan](), "derive_test", "example.com/x/serbenchpb"); !errors.As(err, &de) || !strings.Contains(err.Error(), ".C (chan int)") {
		t.Errorf("a channel: %v", err)
	}
}
