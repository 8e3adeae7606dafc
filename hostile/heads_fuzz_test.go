package hostile_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/serbench/serbench/hostile"
)

// FuzzHeads checks that the format walkers behind Heads never panic on any
// bytes and that every head input keeps the bytes before its offset.
func FuzzHeads(f *testing.F) {
	formats := []string{hostile.FormatMessagePack, hostile.FormatCBOR, hostile.FormatProtobuf, hostile.FormatGob, hostile.FormatWire, hostile.FormatFlatBuffers}
	for i := range formats {
		for _, valid := range encodings(f) {
			f.Add(uint8(i), valid)
		}
	}
	f.Fuzz(func(t *testing.T, fi uint8, data []byte) {
		format := formats[int(fi)%len(formats)]
		for _, in := range hostile.Heads(format, data) {
			off, err := strconv.Atoi(in.Name[strings.LastIndexByte(in.Name, '@')+1:])
			if err != nil || off < 0 || off >= len(data) {
				t.Fatalf("%s: name %q has no offset inside the input", format, in.Name)
			}
			if !bytes.HasPrefix(in.Data, data[:off]) {
				t.Fatalf("%s: %s changes bytes before its offset", format, in.Name)
			}
		}
	})
}
