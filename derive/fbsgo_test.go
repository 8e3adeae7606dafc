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
// slice of structs, pointers, uint64, an embedded struct, arrays) is the
// golden file; cmd/serbench's TestInitFlatBuffersScratchModule compiles
// it against flatc's code and round-trips values through it.
func TestFlatBuffersGo(t *testing.T) {
	src, err := derive.FlatBuffersGo(reflect.TypeFor[Shipment](), "derive_test", "github.com/serbench/serbench/derive_test", "example.com/shop/serbenchfb")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "shipment.fbs.go.txt"), []byte(src))
	for _, want := range []string{"func serbenchMarshalFlatBuffers(b *flatbuffers.Builder, v *Shipment) []byte",
		"func serbenchUnmarshalFlatBuffers(data []byte, v *Shipment) error", "slices.Sort(", "serbenchfb.ShipmentAddTrackingId(b, uint64(v.TrackingID))"} {
		if !strings.Contains(src, want) {
			t.Errorf("the code lacks %q", want)
		}
	}
}

// Types the generated code cannot name or whose accessors would clash:
// one FieldError each, in an *Error.
func TestFlatBuffersGoErrors(t *testing.T) {
	type Clash struct {
		Table string `json:"table"`
		Inner struct{ A int }
	}
	_, err := derive.FlatBuffersGo(reflect.TypeFor[Clash](), "derive_test", "github.com/serbench/serbench/derive_test", "example.com/x/serbenchfb")
	var de *derive.Error
	if !errors.As(err, &de) || len(de.Fields) != 2 {
		t.Fatalf("err = %v, want an *Error with 2 fields", err)
	}
	for _, want := range []string{".Table (string): its FlatBuffers accessor Table would clash", ".Inner (struct { A int }): an anonymous struct"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err lacks %q:\n%v", want, err)
		}
	}
}
