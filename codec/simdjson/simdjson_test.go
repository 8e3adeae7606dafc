package simdjson_test

import (
	"errors"
	"testing"

	simd "github.com/minio/simdjson-go"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/simdjson"
	"github.com/serbench/serbench/internal/codectest"
)

func TestTree(t *testing.T) {
	if !simd.SupportedCPU() {
		_, err := simdjson.New().Bind(new(any))
		if !errors.Is(err, codec.ErrUnsupported) {
			t.Fatalf("Bind on a CPU without AVX2/CLMUL: err = %v, want ErrUnsupported", err)
		}
		t.Skip("this CPU lacks AVX2 or CLMUL: Bind returns ErrUnsupported, as checked")
	}
	codectest.ParseTree(t, simdjson.New())
}
