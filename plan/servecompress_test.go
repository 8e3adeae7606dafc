package plan

import (
	"bytes"
	"compress/flate"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport/ws"
)

// MeasurePermessageDeflate's size is the DEFLATE level-1 message as
// gorilla/websocket sends it (the tail stripped), less the header; the
// figures are filled in and the codec's own are kept.
func TestMeasurePermessageDeflate(t *testing.T) {
	reg := all.Registry()
	c, _ := reg.Lookup("encoding/json")
	var s scenario.Scenario
	for _, x := range scenario.Seeds() {
		if x.ID == "user-profile" {
			s = x
		}
	}
	base := Option{Codec: "encoding/json", Compressor: None, MarshalNs: Point(1000), UnmarshalNs: Point(2000), PayloadBytes: 1, SendEfficiency: 0.9}
	o, err := MeasurePermessageDeflate(c, s, base, time.Millisecond, 1)
	if err != nil {
		t.Fatal(err)
	}
	if o.Compressor != PermessageDeflate || !o.Binary || o.MarshalNs != base.MarshalNs || o.SendEfficiency != 0.9 {
		t.Errorf("option %+v does not keep the codec's figures", o)
	}
	if o.CompressNs.Mid <= 0 || o.DecompressNs.Mid <= 0 || o.CompressNs.Lo > o.CompressNs.Mid || o.CompressNs.Mid > o.CompressNs.Hi {
		t.Errorf("compress %+v, decompress %+v", o.CompressNs, o.DecompressNs)
	}
	b, _ := c.Bind(s.Value())
	data, err := b.Marshal(s.Value())
	if err != nil {
		t.Fatal(err)
	}
	// A level-1 stream of another header and the payload, the tail
	// stripped: the header's digits compress a few bytes differently.
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, 1)
	fw.Write(append([]byte(strings.Repeat("0", ws.HeaderLen-1)+"\n"), data...))
	fw.Flush()
	if want := float64(buf.Len() - 4 - ws.HeaderLen); o.PayloadBytes < want-16 || o.PayloadBytes > want+16 {
		t.Errorf("payload %g B, want %g ± 16 (level 1, tail stripped, less the header)", o.PayloadBytes, want)
	}
	if o.PayloadBytes >= float64(len(data)) {
		t.Errorf("user-profile's JSON (%d B) does not shrink: %g B", len(data), o.PayloadBytes)
	}
	got, err := io.ReadAll(flate.NewReader(io.MultiReader(bytes.NewReader(buf.Bytes()[:buf.Len()-4]), strings.NewReader(deflateTail))))
	if err != nil || !bytes.Equal(got[ws.HeaderLen:], data) {
		t.Errorf("inflate: %v", err)
	}
}

// A codec that cannot carry the scenario is an error naming it.
func TestMeasurePermessageDeflateNA(t *testing.T) {
	c, ok := all.Registry().Lookup("vtprotobuf")
	if !ok {
		t.Skip("no vtprotobuf")
	}
	s := scenario.Scenario{ID: "odd", Value: func() any { return &struct{ X chan int }{} }}
	if _, err := MeasurePermessageDeflate(c, s, Option{Codec: "vtprotobuf"}, time.Millisecond, 1); err == nil || !strings.Contains(err.Error(), "vtprotobuf on odd") {
		t.Errorf("err = %v", err)
	}
}

// The marshal timer the transport's runs are paired with gives a median
// inside its interval; a scenario that does not exist is an error naming
// it.
func TestMarshalTimer(t *testing.T) {
	c, _ := all.Registry().Lookup("encoding/json")
	timer, err := marshalTimer(c, "ws-message", scenario.Seeds())
	if err != nil {
		t.Fatal(err)
	}
	if iv, err := timer(); err != nil || iv.Lo <= 0 || iv.Lo > iv.Mid || iv.Mid > iv.Hi {
		t.Errorf("marshal: %+v ns, %v", iv, err)
	}
	if _, err := marshalTimer(c, "nosuch", scenario.Seeds()); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("err = %v", err)
	}
	if m := sortedMedian([]float64{3, 1, 2, 10}); m != 2.5 {
		t.Errorf("median %g, want 2.5", m)
	}
	if m := sortedMedian(nil); m != 0 {
		t.Errorf("median of nothing %g", m)
	}
}
