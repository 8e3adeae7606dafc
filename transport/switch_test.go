package transport

import (
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
)

func TestSwitchShare(t *testing.T) {
	sw := Switch{At: 10 * time.Second, Ramp: 10 * time.Second}
	for _, tc := range []struct {
		at   time.Duration
		want float64
	}{{0, 0}, {9 * time.Second, 0}, {10 * time.Second, 0}, {15 * time.Second, 0.5}, {20 * time.Second, 1}, {time.Hour, 1}} {
		if got := sw.Share(tc.at); got != tc.want {
			t.Errorf("Share(%v) = %g, want %g", tc.at, got, tc.want)
		}
	}
	if got := (Switch{At: time.Second}).Share(time.Second); got != 1 {
		t.Errorf("no ramp: Share(At) = %g, want 1", got)
	}
}

// Over any window of messages the share of To follows the ramp: within
// 2% over 1000 messages at a fixed share.
func TestSwitchUsesToTracksShare(t *testing.T) {
	for _, share := range []float64{0.1, 0.25, 0.5, 0.9} {
		sw := Switch{At: 0, Ramp: time.Second}
		offset := time.Duration(share * float64(time.Second))
		for _, from := range []uint64{0, 12345} {
			n := 0
			for k := from; k < from+1000; k++ {
				if sw.UsesTo(k, offset) {
					n++
				}
			}
			if got := float64(n) / 1000; math.Abs(got-share) > 0.02 {
				t.Errorf("share %g from message %d: %g of messages use To", share, from, got)
			}
		}
	}
}

func TestParseRequestSwitch(t *testing.T) {
	rv := Resolver{Codecs: all.Registry(), Scenarios: scenario.Seeds()}
	q := func(extra string) url.Values {
		v, err := url.ParseQuery("scenario=sse-event&codec=encoding/json" + extra)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	req, err := rv.ParseRequest(q("&switch_to=msgpack&switch_at=10s&switch_ramp=5s"), "")
	if err != nil {
		t.Fatal(err)
	}
	if req.Switch.To.Info().ID != "msgpack" || req.Switch.At != 10*time.Second || req.Switch.Ramp != 5*time.Second {
		t.Errorf("Switch = %+v", req.Switch)
	}
	plain, _ := rv.ParseRequest(q(""), "")
	if req.Key() == plain.Key() {
		t.Error("a switching request joins the stream of a plain one")
	}
	for _, tc := range []struct{ extra, want string }{
		{"&switch_to=nope", `"nope"`},
		{"&switch_to=encoding/json", "already"},
		{"&switch_to=memmove", "reference row"},
		{"&switch_to=msgpack&switch_at=-1s", "invalid switch_at"},
		{"&switch_to=msgpack&switch_ramp=soon", "invalid switch_ramp"},
		{"&switch_at=1s", "without switch_to"},
	} {
		if _, err := rv.ParseRequest(q(tc.extra), ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %s", tc.extra, err, tc.want)
		}
	}
}
