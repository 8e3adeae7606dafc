package load_test

import (
	"context"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// With -compress on both sides, SSE streams arrive gzipped and WebSocket
// messages deflated, losslessly; without it on the client, the server
// sends them as before.
func TestCompress(t *testing.T) {
	var opts server.Options
	opts.SSE.Gzip, opts.WS.Compress = true, true
	base := servertest.Start(t, opts).URL
	for _, tc := range []struct {
		transport, want string
		compress        bool
	}{
		{"sse", "gzip", true},
		{"ws", "permessage-deflate", true},
		{"sse", "", false},
		{"ws", "", false},
	} {
		rs, err := load.Run(context.Background(), load.Options{
			Registry:  all.Registry(),
			Transport: tc.transport, URL: base, Conns: 2, Rate: 50, Duration: 200 * time.Millisecond,
			Codecs: []string{"encoding/json", "msgpack"}, Compress: tc.compress, Grace: 20 * time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Received != r.Expected || r.Lost+r.DecodeErrors+r.Errors != 0 {
				t.Errorf("%s/%s compress=%v: %+v", tc.transport, r.Codec, tc.compress, r)
			}
			if r.Compression != tc.want {
				t.Errorf("%s/%s compress=%v: compression %q, want %q", tc.transport, r.Codec, tc.compress, r.Compression, tc.want)
			}
			// One gzip stream carries every event of a connection, and
			// every event repeats the scenario value: after the first
			// event, each costs a few dozen bytes.
			if tc.want == "gzip" && r.WireBytesPerMsg >= r.PayloadBytesPerMsg {
				t.Errorf("sse/%s gzip: wire %.1f B/msg, payload %.1f", r.Codec, r.WireBytesPerMsg, r.PayloadBytesPerMsg)
			}
		}
	}
}
