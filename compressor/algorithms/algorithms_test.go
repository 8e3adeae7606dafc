package algorithms

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/scenario"
)

func TestRoundTrip(t *testing.T) {
	ev, err := json.Marshal(scenario.NewUserEvent())
	if err != nil {
		t.Fatal(err)
	}
	big, _, err := scenario.SweepValue(256 << 10)
	if err != nil {
		t.Fatal(err)
	}
	bigJSON, err := json.Marshal(big)
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{"empty": {}, "one byte": {'x'}, "user-event": ev, "sweep 256KiB": bigJSON}
	for _, a := range All() {
		t.Run(a.ID, func(t *testing.T) {
			c, err := a.New()
			if err != nil {
				t.Fatal(err)
			}
			var zbuf, buf []byte
			for name, in := range inputs {
				// Twice, so the second pass reuses the buffers and state.
				for range 2 {
					if zbuf, err = c.Compress(zbuf, in); err != nil {
						t.Fatalf("%s: compress: %v", name, err)
					}
					if buf, err = c.Decompress(buf, zbuf); err != nil {
						t.Fatalf("%s: decompress: %v", name, err)
					}
					if !bytes.Equal(buf, in) {
						t.Fatalf("%s: round trip changed the bytes (%d in, %d out)", name, len(in), len(buf))
					}
				}
				if len(in) > 100000 && len(zbuf) >= len(in)/2 {
					t.Errorf("%s: %d bytes compressed to %d: not compressing", name, len(in), len(zbuf))
				}
			}
			if _, err := c.Decompress(nil, []byte("not compressed data at all")); err == nil {
				t.Error("decompressing garbage: no error")
			}
		})
	}
}

func TestDecompressLimit(t *testing.T) {
	// A header that announces more than the cap must be refused before
	// any allocation.
	for _, id := range []string{"snappy", "s2"} {
		as, err := Select([]string{id})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := as[0].New()
		hdr := []byte{0x80, 0x80, 0x80, 0xa0, 0x01} // uvarint 1<<29+..., above 256 MiB
		if _, err := c.Decompress(nil, hdr); !errors.Is(err, compressor.ErrTooLarge) {
			t.Errorf("%s: %v, want compressor.ErrTooLarge", id, err)
		}
	}
}

func TestSelect(t *testing.T) {
	as, err := Select([]string{"lz4", "gzip"})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{as[0].ID, as[1].ID}; !reflect.DeepEqual(got, []string{"lz4", "gzip"}) {
		t.Errorf("Select order: %v", got)
	}
	for _, bad := range [][]string{{"brotli"}, {"gzip", "gzip"}} {
		if _, err := Select(bad); err == nil {
			t.Errorf("Select(%v): no error", bad)
		}
	}
	if got := IDs(); !reflect.DeepEqual(got, []string{"gzip", "zstd", "snappy", "s2", "lz4"}) {
		t.Errorf("IDs() = %v", got)
	}
}

// Parse reads -compress: IDs in order, "" for none, a list of nothing or
// an unknown ID an error.
func TestParse(t *testing.T) {
	as, err := Parse(" s2, ,zstd")
	if err != nil || len(as) != 2 || as[0].ID != "s2" || as[1].ID != "zstd" {
		t.Errorf("Parse(\" s2, ,zstd\") = %v, %v", as, err)
	}
	if as, err := Parse(""); as != nil || err != nil {
		t.Errorf("Parse(\"\") = %v, %v, want none", as, err)
	}
	for _, bad := range []string{",", "brotli", "s2,s2"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func TestReadAllLimit(t *testing.T) {
	a := appender{max: 1000}
	if out, err := readAll(&a, nil, io.LimitReader(zeros{}, 1000)); err != nil || len(out) != 1000 {
		t.Fatalf("reading up to the cap: %d bytes, %v", len(out), err)
	}
	_, err := readAll(&a, nil, io.LimitReader(zeros{}, 1001))
	if !errors.Is(err, compressor.ErrTooLarge) {
		t.Fatalf("reading past the cap: %v, want compressor.ErrTooLarge", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
