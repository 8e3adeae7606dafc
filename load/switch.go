package load

import (
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/ws"
)

// SwitchOptions move every connection's stream from the phase's codec
// (Options.Codecs, exactly one) to To while it runs, without
// reconnecting: the server tags each message with its codec in-band (SSE
// event: field, a WebSocket tag line; see transport.Switch) and switches
// per message, the share of To rising linearly from 0 at At to 1 at
// At+Ramp on each stream's schedule. The client decodes every message by
// its tag and compares it with the scenario value.
type SwitchOptions struct {
	// To is the codec ID to move to; it must differ from the phase's.
	To string
	// At is when the ramp starts, from each stream's first intended send
	// time; range (0, Duration).
	At time.Duration
	// Ramp is how long the ramp lasts. Default (Duration-At)/2, so the
	// phase after the switch is as long as the ramp; At+Ramp must not
	// exceed Duration.
	Ramp time.Duration
}

// ParseMix reads the -mix flag's value: comma-separated weights, one per
// codec ("50,50"; Options.Mix), empty items ignored. A weight that is not
// a number is an error naming it; Options.Validate checks the rest (a
// weight per codec, each > 0).
func ParseMix(s string) ([]float64, error) {
	var mix []float64
	for _, m := range strings.Split(s, ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		w, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return nil, fmt.Errorf("load: invalid mix weight %q", m)
		}
		mix = append(mix, w)
	}
	return mix, nil
}

// ParseSwitch parses the -switch flag's value "CODEC@AT" (e.g.
// "msgpack@10s"); ramp is the -switch-ramp flag's value (0: the default).
func ParseSwitch(s string, ramp time.Duration) (*SwitchOptions, error) {
	id, at, ok := strings.Cut(s, "@")
	if !ok || id == "" {
		return nil, fmt.Errorf("load: invalid -switch %q (want CODEC@DURATION, e.g. msgpack@10s)", s)
	}
	d, err := time.ParseDuration(at)
	if err != nil {
		return nil, fmt.Errorf("load: invalid -switch %q: %w", s, err)
	}
	return &SwitchOptions{To: id, At: d, Ramp: ramp}, nil
}

// effective fills Ramp's default and checks sw against o (whose other
// fields are already effective).
func (sw SwitchOptions) effective(o Options) (SwitchOptions, error) {
	switch {
	case len(o.Codecs) != 1:
		return sw, fmt.Errorf("load: -switch moves one codec to another: give exactly one -codecs (got %d)", len(o.Codecs))
	case o.Mix != nil:
		return sw, fmt.Errorf("load: -switch and -mix do not go together")
	case sw.To == o.Codecs[0]:
		return sw, fmt.Errorf("load: -switch to %q, which is the codec already", sw.To)
	case sw.At <= 0 || sw.At >= o.Duration:
		return sw, fmt.Errorf("load: invalid switch time %v (range is (0, %v), the duration)", sw.At, o.Duration)
	case CheckRamp(sw.Ramp) != nil:
		return sw, CheckRamp(sw.Ramp)
	}
	if sw.Ramp == 0 {
		sw.Ramp = (o.Duration - sw.At) / 2
	}
	if sw.At+sw.Ramp > o.Duration {
		return sw, fmt.Errorf("load: switch at %v plus ramp %v exceeds the duration %v", sw.At, sw.Ramp, o.Duration)
	}
	cs, err := o.Registry.Select([]string{sw.To})
	if err != nil {
		return sw, fmt.Errorf("load: -switch: %w", err)
	}
	if cs[0].Info().Kind == codec.Reference {
		return sw, fmt.Errorf("load: -switch: %q is a reference row of the matrix, not a codec, and cannot carry messages", sw.To)
	}
	return sw, nil
}

// Phases of a switch, by each message's intended send time on its stream.
var SwitchPhases = []string{"before", "during", "after"}

// SwitchResult is what a phase with a switch measured, in Result.Switch.
type SwitchResult struct {
	From string  `json:"from"`
	To   string  `json:"to"`
	AtS  float64 `json:"at_s"`
	// RampS is the ramp's length in seconds.
	RampS float64 `json:"ramp_s"`
	// Granularity is "message": the codec is chosen per message.
	Granularity string `json:"granularity"`
	// Misdecoded counts messages whose tag named no codec of the switch,
	// whose payload did not decode with the codec its tag named, or whose
	// value differed from the scenario's. Must be 0.
	Misdecoded uint64 `json:"misdecoded"`
	// WrongCodec counts messages tagged with a codec other than the one
	// the switch's schedule gives them (transport.Switch.UsesTo).
	WrongCodec uint64 `json:"wrong_codec"`
	// Lost counts messages lost in all three phases. Must be 0.
	Lost   uint64        `json:"lost"`
	Phases []PhaseResult `json:"phases"`
}

// PhaseResult is one phase of a switch: messages intended before At,
// during the ramp, or after it.
type PhaseResult struct {
	Phase      string  `json:"phase"`
	Received   uint64  `json:"received"`
	FromMsgs   uint64  `json:"from_msgs"`
	ToMsgs     uint64  `json:"to_msgs"`
	Lost       uint64  `json:"lost"`
	Misdecoded uint64  `json:"misdecoded"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
}

// switchGroup gathers a group's switch measurements.
type switchGroup struct {
	sw         transport.Switch
	from, to   codec.Codec
	mu         sync.Mutex
	phases     [3]PhaseResult
	hists      [3]*hdrhistogram.Histogram
	wrongCodec uint64
}

// switchConn is one connection's side: a binding per codec and its
// stream's start.
type switchConn struct {
	g        *switchGroup
	start    time.Time
	bindings map[string]codec.Binding
	binary   map[string]bool
}

// setupSwitch gives every group of a phase with a switch its switchGroup.
func setupSwitch(o Options, groups []*group) error {
	if o.Switch == nil {
		return nil
	}
	cs, err := o.Registry.Select([]string{o.Switch.To})
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	for _, g := range groups {
		sg := &switchGroup{sw: transport.Switch{To: cs[0], At: o.Switch.At, Ramp: o.Switch.Ramp}, from: g.codec, to: cs[0]}
		for i := range sg.hists {
			sg.hists[i] = hdrhistogram.New(1, histMaxUs, 3)
		}
		g.sw = sg
	}
	return nil
}

// switchQuery adds o's switch, if any, to a stream's query.
func switchQuery(o Options, q url.Values) url.Values {
	if o.Switch != nil {
		transport.SwitchQuery(q, o.Switch.To, o.Switch.At, o.Switch.Ramp)
	}
	return q
}

// attachSwitch prepares connection c, whose stream starts at start, for
// tagged messages when its group switches.
func (g *group) attachSwitch(c *conn, start time.Time) error {
	if g.sw == nil {
		return nil
	}
	sc := &switchConn{g: g.sw, start: start, bindings: map[string]codec.Binding{}, binary: map[string]bool{}}
	for _, cd := range []codec.Codec{g.sw.from, g.sw.to} {
		b, err := cd.Bind(g.scenario.Value())
		if err != nil {
			return fmt.Errorf("load: bind %s: %w", cd.Info().ID, err)
		}
		sc.bindings[cd.Info().ID] = b
		sc.binary[cd.Info().ID] = cd.Info().Binary
	}
	c.sw = sc
	return nil
}

// message handles a tagged message: tag is the codec ID the server sent
// in-band, payload its raw bytes. It points the connection's binding at
// the tag's codec and has conn.message decode it, compare it with the
// scenario value (every message, not only the first) and account for its
// sequence number and latency; then it adds the message to its phase.
func (sc *switchConn) message(c *conn, now time.Time, seq uint64, intended int64, tag string, payload []byte, encodedLen int) {
	lost, bad := c.st.lost, c.st.decodeErrors
	b, known := sc.bindings[tag]
	if known {
		c.binding, c.checked = b, false
		c.message(now, seq, intended, payload, encodedLen)
	} else {
		// No codec to decode with: account for the message as undecodable.
		c.binding, c.checked = failBinding{tag}, false
		c.message(now, seq, intended, payload, encodedLen)
	}
	offset := time.Duration(intended - sc.start.UnixNano())
	want := sc.g.from.Info().ID
	if sc.g.sw.UsesTo(seq, offset) {
		want = sc.g.to.Info().ID
	}
	p := 0
	switch {
	case offset >= sc.g.sw.At+sc.g.sw.Ramp:
		p = 2
	case offset >= sc.g.sw.At:
		p = 1
	}
	us := max((now.UnixNano()-intended)/1e3, 1)
	g := sc.g
	g.mu.Lock()
	ph := &g.phases[p]
	ph.Received++
	if tag == g.to.Info().ID {
		ph.ToMsgs++
	} else if tag == g.from.Info().ID {
		ph.FromMsgs++
	}
	ph.Lost += c.st.lost - lost
	ph.Misdecoded += c.st.decodeErrors - bad
	if tag != want {
		g.wrongCodec++
	}
	_ = g.hists[p].RecordValue(min(us, histMaxUs))
	g.mu.Unlock()
}

// finish adds the messages connection c never received at the end of its
// stream (conn.finish counts them as lost) to the last phase.
func (sc *switchConn) finish(c *conn) {
	if c.next < c.g.count {
		sc.g.mu.Lock()
		sc.g.phases[2].Lost += c.g.count - c.next
		sc.g.mu.Unlock()
	}
}

// binaryOf reports whether tag's codec is binary (false for an unknown tag).
func (sc *switchConn) binaryOf(tag string) bool { return sc.binary[tag] }

// wsMessage handles one WebSocket message of a switching stream: header,
// tag line, payload; the frame type must match the tag's codec.
func (sc *switchConn) wsMessage(c *conn, now time.Time, typ int, msg []byte) {
	seq, intended, rest, err := ws.ParseHeader(msg)
	if err != nil {
		c.st.decodeErrors++
		return
	}
	tag, payload, err := ws.ParseTag(rest)
	want := websocket.TextMessage
	if sc.binaryOf(tag) {
		want = websocket.BinaryMessage
	}
	if err != nil || typ != want {
		tag = "" // decoded as a failure, still counted in sequence
	}
	sc.message(c, now, seq, intended, tag, payload, len(payload))
}

// failBinding is the binding of a tag that names no codec of the switch.
type failBinding struct{ tag string }

func (f failBinding) Marshal(any) ([]byte, error) {
	return nil, fmt.Errorf("load: no codec for tag %q", f.tag)
}
func (f failBinding) Unmarshal([]byte) (any, error) {
	return nil, fmt.Errorf("load: no codec for tag %q", f.tag)
}

// result returns the switch's measurements.
func (g *switchGroup) result() *SwitchResult {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := &SwitchResult{From: g.from.Info().ID, To: g.to.Info().ID, AtS: g.sw.At.Seconds(), RampS: g.sw.Ramp.Seconds(),
		Granularity: "message", WrongCodec: g.wrongCodec}
	for i, ph := range g.phases {
		ph.Phase = SwitchPhases[i]
		h := g.hists[i]
		ph.P50Ms, ph.P99Ms, ph.MaxMs = ms(h.ValueAtQuantile(50)), ms(h.ValueAtQuantile(99)), ms(h.Max())
		r.Misdecoded += ph.Misdecoded
		r.Lost += ph.Lost
		r.Phases = append(r.Phases, ph)
	}
	return r
}

// writeSwitchTable writes, for each result with a switch, one row per
// phase; nothing when no result has one.
func writeSwitchTable(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := false
	for _, x := range rs {
		s := x.Switch
		if s == nil {
			continue
		}
		if !header {
			fmt.Fprintf(tw, "\ntransport\tswitch\tphase\treceived\tfrom msgs\tto msgs\tlost\tmisdecoded\tp50 ms\tp99 ms\tmax ms\t\n")
			header = true
		}
		name := fmt.Sprintf("%s→%s@%gs+%gs", s.From, s.To, s.AtS, s.RampS)
		for _, p := range s.Phases {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t\n",
				cell(x.Transport), cell(name), cell(p.Phase), p.Received, p.FromMsgs, p.ToMsgs, p.Lost, p.Misdecoded, p.P50Ms, p.P99Ms, p.MaxMs)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	for _, x := range rs {
		if s := x.Switch; s != nil {
			if _, err := fmt.Fprintf(w, "switch %s/%s→%s (per message): %d lost, %d misdecoded, %d with an unscheduled codec\n",
				cell(x.Transport), cell(s.From), cell(s.To), s.Lost, s.Misdecoded, s.WrongCodec); err != nil {
				return fmt.Errorf("load: write table: %w", err)
			}
		}
	}
	return nil
}

// CheckRamp reports whether ramp is a valid SwitchOptions.Ramp on its own
// (>= 0; 0 means the default); the check against the duration waits for
// the options in effect.
func CheckRamp(ramp time.Duration) error {
	if ramp < 0 {
		return fmt.Errorf("load: invalid switch ramp %v (must be >= 0)", ramp)
	}
	return nil
}
