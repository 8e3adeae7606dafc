package sse

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// TestGzipRelease checks that a gzip stream whose compressor is released
// between writes (and reused by another stream meanwhile) decodes, with
// the standard library's reader, to what was written, trailer included.
func TestGzipRelease(t *testing.T) {
	var a, b bytes.Buffer
	ga, gb := &gzipWriter{w: &a}, &gzipWriter{w: &b}
	var want strings.Builder
	for i := range 50 {
		ev := strings.Repeat("data: event ", 1+i%7) + "\n\n"
		want.WriteString(ev)
		for _, g := range []*gzipWriter{ga, gb} {
			if _, err := g.Write([]byte(ev)); err != nil {
				t.Fatal(err)
			}
			if err := g.Flush(); err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				if err := g.release(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for name, g := range map[string]*gzipWriter{"a": ga, "b": gb} {
		if err := g.release(); err != nil { // released when closed
			t.Fatal(err)
		}
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		buf := map[string]*bytes.Buffer{"a": &a, "b": &b}[name]
		r, err := gzip.NewReader(buf)
		if err != nil {
			t.Fatal(err)
		}
		r.Multistream(false)
		got, err := io.ReadAll(r) // checks the CRC-32 and size at the end
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != want.String() {
			t.Errorf("%s: decoded %d bytes, want %d", name, len(got), want.Len())
		}
		if rest, _ := io.ReadAll(buf); len(rest) != 0 {
			t.Errorf("%s: %d bytes after the gzip member", name, len(rest))
		}
	}
}
