package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

// counting is a Binding that counts its calls.
type counting struct{ marshal, unmarshal int }

func (c *counting) Marshal(any) ([]byte, error)   { c.marshal++; return []byte("x"), nil }
func (c *counting) Unmarshal([]byte) (any, error) { c.unmarshal++; return nil, nil }

var _ codec.Binding = (*repeatBinding)(nil)

func TestRepeatShare(t *testing.T) {
	for _, tc := range []struct {
		share float64
		want  int
	}{{0, 1000}, {0.1, 1100}, {0.25, 1250}, {1, 2000}} {
		inner := &counting{}
		b := &repeatBinding{b: inner, share: tc.share}
		for range 1000 {
			if _, err := b.Marshal(nil); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Unmarshal(nil); err != nil {
				t.Fatal(err)
			}
		}
		if inner.marshal != tc.want || inner.unmarshal != tc.want {
			t.Errorf("share %v: %d marshals and %d unmarshals for 1000 calls each, want %d", tc.share, inner.marshal, inner.unmarshal, tc.want)
		}
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "-o DIR is required"},
		{[]string{"-o", t.TempDir(), "-trials", "0"}, "invalid -trials 0"},
		{[]string{"-o", t.TempDir(), "-slowdown", "2"}, "invalid -slowdown 2"},
		{[]string{"-o", t.TempDir(), "-replicates", "0"}, "invalid -replicates 0"},
		{[]string{"-worker", t.TempDir() + "/x.json", "-slow", "nosuch"}, "not among -codecs"},
	} {
		err := run(context.Background(), tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}
