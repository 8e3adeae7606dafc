package probe_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/probe"
)

// fidelityFixture is a fixed fidelity document with one cell of each
// status, a codec that could take no probe, and markup in a detail.
func fidelityFixture() *probe.Document {
	return &probe.Document{
		Env: &env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 2.0GHz", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/vmihailenco/msgpack/v5": "v5.4.1"},
			Settings: []string{"format=table"}},
		Codecs: []codec.Info{
			{ID: "encoding/json", Module: "std", Format: "JSON", Kind: codec.Reflect},
			{ID: "msgpack", Module: "github.com/vmihailenco/msgpack/v5", Format: "MessagePack", Kind: codec.Reflect, Binary: true},
			{ID: "protobuf", Module: "google.golang.org/protobuf", Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true},
		},
		Probes: []probe.Info{
			{ID: "float-nan", Group: "floats", Doc: "float64 NaN"},
			{ID: "string-html", Group: "strings", Doc: "string with <a>&</a>"},
			{ID: "time-zone", Group: "time", Doc: "time in America/New_York"},
		},
		Cells: []probe.Cell{
			{Codec: "encoding/json", Probe: "float-nan", Status: probe.Error, Error: "marshal: json: unsupported value: NaN"},
			{Codec: "msgpack", Probe: "float-nan", Status: probe.Kept, Size: 11},
			{Codec: "protobuf", Probe: "float-nan", Status: probe.NA, Error: "protobuf: not supported: no message for *probe.float64One"},
			{Codec: "encoding/json", Probe: "string-html", Status: probe.Kept, Note: `wire: < > & escaped (\u003c ...)`, Size: 40},
			{Codec: "msgpack", Probe: "string-html", Status: probe.Kept, Size: 22},
			{Codec: "protobuf", Probe: "string-html", Status: probe.NA, Error: "protobuf: not supported: no message for *probe.stringOne"},
			{Codec: "encoding/json", Probe: "time-zone", Status: probe.Changed, Path: ".T", Want: `2026-07-04T12:00:00-04:00 "America/New_York"`, Got: `2026-07-04T12:00:00-04:00 ""`, Size: 37},
			{Codec: "msgpack", Probe: "time-zone", Status: probe.Changed, Path: ".T", Want: `2026-07-04T12:00:00-04:00 "America/New_York"`, Got: `2026-07-04T16:00:00Z "Local"`, Size: 18},
			{Codec: "protobuf", Probe: "time-zone", Status: probe.NA, Error: "protobuf: not supported: no message for *probe.timeValue"},
		},
	}
}

func TestFidelityGolden(t *testing.T) {
	for _, format := range probe.Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := probe.Write(&buf, format, fidelityFixture()); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "fidelity."+format), buf.Bytes())
		})
	}
	if err := probe.Write(&bytes.Buffer{}, "benchfmt", fidelityFixture()); err == nil || !strings.Contains(err.Error(), `unknown fidelity format "benchfmt" (valid: table, `) {
		t.Errorf("unknown format: %v", err)
	}
}

// TestFidelityHTML checks that the page fetches nothing, escapes the
// document's text and colours cells by status.
func TestFidelityHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := probe.HTML(&buf, fidelityFixture()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http:", "https:", "src=", "<link", "url(", "@import", "<a>"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	for _, want := range []string{"&lt;a&gt;&amp;&lt;/a&gt;", `<td class="error">error [1]</td>`, `<td class="kept">kept</td>`, `<td class="changed">changed [3]</td>`,
		"body { font-family:", "protobuf (every probe): not supported: no message for *probe.float64One"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
