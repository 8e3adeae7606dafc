package codec_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

func TestRecoverEncodeDecode(t *testing.T) {
	enc := func(v any) (data []byte, err error) {
		defer codec.RecoverEncode(&err, "lib", v)
		if v == nil {
			panic("nil value")
		}
		return []byte("ok"), nil
	}
	dec := func(data []byte) (err error) {
		defer codec.RecoverDecode(&err, "lib", data)
		_ = data[len(data)] // out of range: a runtime panic
		return nil
	}
	if data, err := enc(nil); err == nil || data != nil || err.Error() != "lib: encoding <nil> panicked: nil value" {
		t.Errorf("encode panic: %q, %v", data, err)
	}
	if data, err := enc(7); err != nil || string(data) != "ok" {
		t.Errorf("no panic: %q, %v", data, err)
	}
	if err := dec([]byte{1, 2, 3}); err == nil || !strings.HasPrefix(err.Error(), "lib: decoding 3 bytes panicked: runtime error: index out of range") {
		t.Errorf("decode panic: %v", err)
	}
}
