// Package load is serbench's open-loop load client for the push servers of
// package transport/server: it opens many SSE or WebSocket connections to a
// loopback server, has every connection's stream paced by the server at a
// fixed rate, decodes every message with its codec, checks sequence numbers
// and records the latency from each message's intended send time (so a slow
// server cannot hide its delays by sending less: no coordinated omission,
// as wrk2 measures) into HDR histograms.
//
// # How a phase runs
//
// The N connections share S = N/Fanout streams: connection i subscribes to
// stream i mod S (stream=<run>-<i mod S>, run=<run>) of ceil(Rate*Duration)
// messages, so with Fanout F the server encodes each message once and
// sends it to F connections (Fanout 1: every connection its own stream).
// Connections open during a warm-up (Setup); stream s's first intended
// send time is start+Setup+s/S*Ramp, so the S schedules interleave evenly
// over one period instead of firing together, and connection setup is not
// measured. The server's single scheduler
// publishes message k of a stream at stream start + k/Rate and never
// drifts; a late publish keeps its intended time.
//
// A connection that loses its stream early (say the server dropped it for
// a full queue) reconnects up to 5 times and resumes after the last
// sequence number it has (SSE: Last-Event-ID; WebSocket: last_event_id=).
// Received counts messages that arrived in order, Duplicates those at or
// before one already received, Lost the expected ones that never arrived.
// Latency is receive time minus intended send time, recorded in µs into HDR
// histograms (1µs to 10min, 3 significant digits) shared by connections
// modulo 16 and merged per codec.
//
// Load goes only to loopback addresses (127.0.0.0/8 and ::1): Run refuses
// any other target, and its dialer checks the connected address again.
package load

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// Transports names the transports Run drives.
var Transports = []string{"sse", "ws"}

// Options configure Run. The zero value means defaults, except URL.
type Options struct {
	// Transport is "sse" or "ws". Default "sse".
	Transport string
	// URL is the server's base URL, such as http://127.0.0.1:8080; the host
	// must be a loopback IP address or "localhost".
	URL string
	// Conns is the number of connections per phase. Default 1000; range [1, 100000].
	Conns int
	// Fanout is how many connections subscribe to each stream: Conns/Fanout
	// streams, each message encoded once and sent Fanout times. Default 1;
	// range [1, Conns], and Conns must be a multiple of it (no rounding).
	// With Mix or Switch it must be 1.
	Fanout int
	// Rate is the messages per second each connection receives. Default 10;
	// range (0, 10000].
	Rate float64
	// Duration is how long each connection's stream runs: it carries
	// ceil(Rate*Duration) messages. Default 30s; range [10ms, 24h].
	Duration time.Duration
	// Codecs are the codec IDs. Default encoding/json.
	Codecs []string
	// Mix, when set, runs all Codecs at once, splitting Conns by these
	// weights (one per codec, > 0); when nil, each codec runs in its own
	// phase with Conns connections, one after the other.
	Mix []float64
	// Scenario is the scenario ID. Default "sse-event" for sse and
	// "ws-message" for ws.
	Scenario string
	// Setup is the warm-up: connections open during it (spread over its
	// first half) and no stream sends before it ends, so connection setup
	// is not part of the measurement. Default 250ms + 1ms per connection.
	Setup time.Duration
	// Ramp spreads the streams' first intended send times evenly over this
	// time after Setup, so that their schedules interleave instead of all
	// firing at once. Default 1/Rate, at most 1s.
	Ramp time.Duration
	// Grace is how long a phase waits after the last scheduled message
	// before it gives up on missing ones (counted as lost). Default 5s.
	Grace time.Duration
	// Registry and Scenarios resolve IDs. Registry is required
	// (codec/all.Registry() for every codec); nil Scenarios means
	// scenario.Seeds.
	Registry  *codec.Registry
	Scenarios []scenario.Scenario
	// InProcess records in the results that the server runs in this
	// process, so its CPU figures include the load client.
	InProcess bool
	// Compress asks the server to compress: SSE requests send
	// Accept-Encoding: gzip, WebSocket handshakes offer permessage-deflate
	// (RFC 7692). Result.Compression says what the server agreed to; wire
	// bytes are then the compressed bytes. Default false.
	Compress bool
	// Switch, when set, moves every stream to another codec mid-run
	// (switch.go).
	Switch *SwitchOptions
	// SkipUnmarshal has the client read every message and check its
	// sequence (from the framing) without unmarshaling the payload, so
	// that its CPU is the receiving transport's alone: serbench plan's
	// transport rounds (plan.MeasureTransport) use it. DecodeErrors stay
	// 0 and no message is compared with the scenario. Default false.
	SkipUnmarshal bool
}

// Defaults of Options. Scenario defaults to DefaultSSEScenario or
// DefaultWSScenario by transport; Setup and Ramp depend on Conns and Rate.
const (
	DefaultTransport   = "sse"
	DefaultConns       = 1000
	DefaultRate        = 10
	DefaultDuration    = 30 * time.Second
	DefaultCodec       = "encoding/json"
	DefaultSSEScenario = "sse-event"
	DefaultWSScenario  = "ws-message"
	DefaultGrace       = 5 * time.Second
)

// Effective returns o with defaults filled in, or an error naming the
// first bad field.
func (o Options) Effective() (Options, error) {
	if o.Transport == "" {
		o.Transport = DefaultTransport
	}
	if o.Conns == 0 {
		o.Conns = DefaultConns
	}
	if o.Rate == 0 {
		o.Rate = DefaultRate
	}
	if o.Fanout == 0 {
		o.Fanout = 1
	}
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	if len(o.Codecs) == 0 {
		o.Codecs = []string{DefaultCodec}
	}
	if o.Scenario == "" {
		o.Scenario = DefaultSSEScenario
		if o.Transport == "ws" {
			o.Scenario = DefaultWSScenario
		}
	}
	if o.Ramp == 0 && o.Rate > 0 {
		o.Ramp = min(time.Duration(float64(time.Second)/o.Rate), time.Second)
	}
	if o.Setup == 0 {
		o.Setup = 250*time.Millisecond + time.Duration(o.Conns)*time.Millisecond
	}
	if o.Grace == 0 {
		o.Grace = DefaultGrace
	}
	if o.Registry == nil {
		return o, errors.New("load: Options.Registry is nil: pass the registry of the codecs to measure (codec/all.Registry() for every codec)")
	}
	if o.Scenarios == nil {
		o.Scenarios = scenario.Seeds()
	}
	switch {
	case o.Transport != "sse" && o.Transport != "ws":
		return o, fmt.Errorf("load: unknown transport %q (want %s)", o.Transport, strings.Join(Transports, " or "))
	case o.Conns < 1 || o.Conns > 100000:
		return o, fmt.Errorf("load: invalid conns %d (range is [1, 100000])", o.Conns)
	case o.Fanout < 1 || o.Fanout > o.Conns:
		return o, fmt.Errorf("load: invalid fanout %d (range is [1, conns %d]: raise -conns or lower -fanout)", o.Fanout, o.Conns)
	case o.Conns%o.Fanout != 0:
		return o, fmt.Errorf("load: conns %d is not a multiple of fanout %d: every stream needs -fanout connections (try -conns %d)", o.Conns, o.Fanout, o.Conns/o.Fanout*o.Fanout)
	case o.Fanout > 1 && (o.Mix != nil || o.Switch != nil):
		return o, fmt.Errorf("load: fanout %d with mix or switch: shared streams carry one codec and no switch (use -fanout 1)", o.Fanout)
	case math.IsNaN(o.Rate) || o.Rate <= 0 || o.Rate > 10000:
		return o, fmt.Errorf("load: invalid rate %g (range is (0, 10000] messages/s per connection)", o.Rate)
	case o.Duration < 10*time.Millisecond || o.Duration > 24*time.Hour:
		return o, fmt.Errorf("load: invalid duration %v (range is [10ms, 24h])", o.Duration)
	case o.Ramp < 0 || o.Ramp > time.Hour:
		return o, fmt.Errorf("load: invalid ramp %v (range is [0, 1h])", o.Ramp)
	case o.Setup < 0 || o.Setup > 10*time.Minute:
		return o, fmt.Errorf("load: invalid setup %v (range is [0, 10m])", o.Setup)
	case o.Grace < 0 || o.Grace > time.Hour:
		return o, fmt.Errorf("load: invalid grace %v (range is [0, 1h])", o.Grace)
	}
	cs, err := o.Registry.Select(o.Codecs)
	if err != nil {
		return o, fmt.Errorf("load: %w", err)
	}
	for _, c := range cs {
		if c.Info().Kind == codec.Reference {
			return o, fmt.Errorf("load: %q is a reference row of the matrix, not a codec, and cannot carry messages", c.Info().ID)
		}
		if c.Info().ParseOnly {
			return o, fmt.Errorf("load: %q only parses JSON into its own tree and cannot encode messages", c.Info().ID)
		}
	}
	if _, err := scenario.Select(o.Scenarios, []string{o.Scenario}); err != nil {
		return o, fmt.Errorf("load: %w", err)
	}
	if o.Mix != nil {
		if len(o.Mix) != len(o.Codecs) {
			return o, fmt.Errorf("load: mix has %d weights for %d codecs", len(o.Mix), len(o.Codecs))
		}
		for _, w := range o.Mix {
			if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
				return o, fmt.Errorf("load: invalid mix weight %g (want > 0)", w)
			}
		}
		if o.Conns < len(o.Codecs) {
			return o, fmt.Errorf("load: %d conns cannot mix %d codecs", o.Conns, len(o.Codecs))
		}
	}
	if _, err := CheckLoopback(o.URL); err != nil {
		return o, err
	}
	if o.Switch != nil {
		sw, err := o.Switch.effective(o)
		if err != nil {
			return o, err
		}
		o.Switch = &sw
	}
	return o, nil
}

// ErrNotLoopback is wrapped by CheckLoopback's refusals.
var ErrNotLoopback = errors.New("only loopback targets (127.0.0.0/8, ::1, localhost) are allowed")

// CheckLoopback parses a server URL (http, https, ws or wss) and returns it
// if its host is a loopback IP address or "localhost". Any other host is
// refused, without a DNS lookup.
func CheckLoopback(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("load: invalid url %q: %w", raw, err)
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
	default:
		return nil, fmt.Errorf("load: invalid url %q: scheme must be http, https, ws or wss", raw)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("load: invalid url %q: no host", raw)
	}
	if strings.EqualFold(host, "localhost") {
		return u, nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("load: refusing target %q: %w", host, ErrNotLoopback)
	}
	return u, nil
}

// split divides n connections by weights (largest remainder) and returns
// each connection's codec index, interleaved so that every codec's
// connections spread over the whole ramp.
func split(n int, weights []float64) []int {
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	counts := make([]int, len(weights))
	rem := make([]float64, len(weights))
	got := 0
	for i, w := range weights {
		x := float64(n) * w / sum
		counts[i] = int(x)
		rem[i] = x - float64(counts[i])
		got += counts[i]
	}
	for ; got < n; got++ {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		counts[best]++
		rem[best] = -1
	}
	// Interleave: connection j of codec i sits at (j+0.5)/counts[i].
	type slot struct {
		key   float64
		codec int
	}
	slots := make([]slot, 0, n)
	for i, c := range counts {
		for j := range c {
			slots = append(slots, slot{(float64(j) + 0.5) / float64(c), i})
		}
	}
	out := make([]int, n)
	slices.SortFunc(slots, func(a, b slot) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.codec, b.codec)
	})
	for i, s := range slots {
		out[i] = s.codec
	}
	return out
}
