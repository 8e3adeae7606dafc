package load

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/ws"
)

// Result is the measurement of one (transport, codec) in one phase. JSON
// names are part of serbench/v1 (docs/reference.md, "JSON documents").
type Result struct {
	Transport string `json:"transport"`
	Codec     string `json:"codec"`
	Scenario  string `json:"scenario"`
	Conns     int    `json:"conns"`
	// Fanout is the connections per stream (Options.Fanout) and Streams
	// the streams they shared, Conns/Fanout; both absent at fan-out 1.
	Fanout    int     `json:"fanout,omitempty"`
	Streams   int     `json:"streams,omitempty"`
	Rate      float64 `json:"rate"`       // messages/s per connection
	DurationS float64 `json:"duration_s"` // each stream's scheduled span
	// Expected is conns * messages per stream.
	Expected uint64 `json:"expected"`
	// Sent is how many messages the server's streams published (server
	// stats): each encoded once per stream, whatever its fan-out.
	Sent uint64 `json:"sent"`
	// Delivered is how many (message, connection) pairs the server queued
	// (server stats): Sent × Fanout when no connection fell behind.
	Delivered uint64 `json:"delivered"`
	// Received counts distinct messages that arrived in order.
	Received uint64 `json:"received"`
	// Lost counts expected messages that never arrived (gaps and missing tails).
	Lost uint64 `json:"lost"`
	// Duplicates counts messages at or before one already received.
	Duplicates uint64 `json:"duplicates"`
	// LossyConns counts connections that lost at least one message,
	// DisorderedConns those that received at least one message at or
	// before one already received.
	LossyConns      uint64 `json:"lossy_conns"`
	DisorderedConns uint64 `json:"disordered_conns"`
	DecodeErrors    uint64 `json:"decode_errors"`
	// Errors counts connections that failed or ended before their stream did.
	Errors     uint64 `json:"errors"`
	Reconnects uint64 `json:"reconnects"`
	// MsgsPerS is Received over the time from the first intended send time
	// (after the warm-up) to the last message received.
	MsgsPerS float64 `json:"msgs_per_s"`
	// Latency from intended send time to receipt, in milliseconds.
	P50Ms  float64 `json:"p50_ms"`
	P90Ms  float64 `json:"p90_ms"`
	P99Ms  float64 `json:"p99_ms"`
	P999Ms float64 `json:"p999_ms"`
	MaxMs  float64 `json:"max_ms"`
	// WireBytesPerMsg is the bytes read from the sockets per message
	// received (HTTP/WebSocket framing, handshakes and chunking included;
	// TCP/IP headers not). It splits into PayloadBytesPerMsg (the codec's
	// bytes), Base64BytesPerMsg (what base64 added) and FramingBytesPerMsg
	// (everything else).
	WireBytesPerMsg    float64 `json:"wire_bytes_per_msg"`
	PayloadBytesPerMsg float64 `json:"payload_bytes_per_msg"`
	FramingBytesPerMsg float64 `json:"framing_bytes_per_msg"`
	Base64BytesPerMsg  float64 `json:"base64_bytes_per_msg"`
	// ServerCPUSeconds is the server process's user+system CPU time over
	// the phase; CPUScope says what it covers ("process": server and load
	// client in one process; "server": the server alone). With Mix, every
	// codec of the phase shows the phase's total.
	ServerCPUSeconds float64 `json:"server_cpu_s"`
	CPUScope         string  `json:"cpu_scope"`
	// CheckCPUSeconds is the load client's CPU time (its threads', Linux)
	// spent on checks a receiver does not make: building each
	// connection's decoder from the scenario's value and comparing its
	// first message with the scenario. On annot/series@large that is
	// about 75 ms a connection, which at fan-out 100 over a 10 s run is
	// more than the decoding (docs/plan.md); serbench plan takes it off
	// the client's CPU. 0 where thread CPU time cannot be read.
	CheckCPUSeconds float64 `json:"check_cpu_s,omitempty"`
	// PeakRSSBytes is the server process's peak resident set size during
	// the phase (PeakRSSScope "phase": Linux, where the peak is reset when
	// the phase starts), or its peak so far (PeakRSSScope "process so far").
	PeakRSSBytes int64  `json:"peak_rss_bytes"`
	PeakRSSScope string `json:"peak_rss_scope"`
	// Publisher lag: how late the server published behind schedule, ms.
	PublisherLagP50Ms float64 `json:"publisher_lag_p50_ms"`
	PublisherLagP99Ms float64 `json:"publisher_lag_p99_ms"`
	PublisherLagMaxMs float64 `json:"publisher_lag_max_ms"`
	// Overflows, Dropped and ReplayMisses are the server's counters (see
	// transport.CodecStats).
	Overflows    uint64 `json:"overflows"`
	Dropped      uint64 `json:"dropped"`
	ReplayMisses uint64 `json:"replay_misses"`
	// Compression is "gzip" (SSE) or "permessage-deflate" (WebSocket)
	// when the load asked for compression (-compress) and the server
	// compressed at least one connection; absent otherwise. Wire bytes are
	// then compressed bytes, so FramingBytesPerMsg is negative when
	// compression saves more than the framing costs.
	Compression string `json:"compression,omitempty"`
	// Histogram is the latency histogram in µs, in HdrHistogram's
	// compressed, base64 encoding (hdrhistogram-go Histogram.Encode with
	// V2CompressedEncodingCookieBase), for serbench merge.
	Histogram string `json:"histogram,omitempty"`
	// Error is the first connection error, if any.
	Error string `json:"error,omitempty"`
	// Switch is the codec switch of the phase (Options.Switch), if any.
	Switch *SwitchResult `json:"switch,omitempty"`
}

// Run runs the load of o: one phase with every codec at once when o.Mix is
// set, otherwise one phase per codec. It returns one Result per codec, or
// an error for bad options, an unreachable server or a cancelled ctx.
func Run(ctx context.Context, o Options) ([]Result, error) {
	o, err := o.Effective()
	if err != nil {
		return nil, err
	}
	codecs, _ := o.Registry.Select(o.Codecs)
	ss, _ := scenario.Select(o.Scenarios, []string{o.Scenario})
	sc := ss[0]
	for _, c := range codecs {
		if _, err := c.Bind(sc.Value()); err != nil {
			return nil, fmt.Errorf("load: codec %s on scenario %s: %w", c.Info().ID, sc.ID, err)
		}
	}
	if o.Mix != nil {
		return runPhase(ctx, o, codecs, sc, split(o.Conns, o.Mix))
	}
	var out []Result
	for _, c := range codecs {
		rs, err := runPhase(ctx, o, []codec.Codec{c}, sc, make([]int, o.Conns))
		if err != nil {
			return out, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// runPhase runs len(assign) connections, connection i with codec
// codecs[assign[i]], and waits for all of them.
func runPhase(ctx context.Context, o Options, codecs []codec.Codec, sc scenario.Scenario, assign []int) ([]Result, error) {
	base, _ := CheckLoopback(o.URL)
	count := uint64(math.Ceil(o.Rate * o.Duration.Seconds()))
	run := newRunID()
	var statsBytes atomic.Int64
	hc := &http.Client{Transport: &http.Transport{DialContext: loopbackDialer(&statsBytes)}}
	defer hc.CloseIdleConnections()
	before, err := fetchStats(ctx, hc, base, run, true)
	if err != nil {
		return nil, err
	}

	streams := len(assign) / o.Fanout
	groups, sseClients, wsClients, closeClients := newClients(o, codecs, sc, count, base)
	defer closeClients()
	if err := setupSwitch(o, groups); err != nil {
		return nil, err
	}

	// Every stream should end by setup + ramp + duration; after Grace more, give up.
	deadline := o.Setup + o.Ramp + o.Duration + o.Grace
	pctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	start := time.Now()
	first := start.Add(o.Setup) // first intended send time of the phase
	var wg sync.WaitGroup
	for i, ci := range assign {
		g := groups[ci]
		c, err := g.newConn(i)
		if err != nil {
			return nil, err
		}
		frac := float64(i) / float64(len(assign))
		at := start.Add(time.Duration(float64(o.Setup) / 2 * frac))
		s := i % streams // connection i's stream
		streamStart := first.Add(time.Duration(float64(o.Ramp) * float64(s) / float64(streams)))
		if err := g.attachSwitch(c, streamStart); err != nil {
			return nil, err
		}
		wg.Go(func() {
			if d := time.Until(at); d > 0 {
				t := time.NewTimer(d)
				select {
				case <-pctx.Done():
					t.Stop()
					c.finish(nil)
					return
				case <-t.C:
				}
			}
			id := g.codec.Info().ID
			switch o.Transport {
			case "sse":
				cl := *sseClients[ci]
				cl.query = switchQuery(o, streamQuery(o, id, count, run, s, true, streamStart))
				runConn(pctx, c, cl.once)
			case "ws":
				cl := *wsClients[ci]
				cl.query = switchQuery(o, streamQuery(o, id, count, run, s, false, streamStart))
				runConn(pctx, c, cl.once)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	after, err := fetchStats(ctx, hc, base, run, false)
	if err != nil {
		return nil, err
	}

	out := phaseResults(o, sc, groups, before, after, first, count)
	for i, g := range groups {
		if g.sw != nil {
			out[i].Switch = g.sw.result()
		}
	}
	return out, nil
}

func newRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "r" + hex.EncodeToString(b[:])
}

// newClients makes one group (counters, histograms) per codec and the SSE
// or WebSocket client its connections share; closeAll releases their idle
// connections.
func newClients(o Options, codecs []codec.Codec, sc scenario.Scenario, count uint64, base *url.URL) (
	groups []*group, sseClients []*sseClient, wsClients []*wsClient, closeAll func()) {
	var closers []func()
	groups = make([]*group, len(codecs))
	sseClients = make([]*sseClient, len(codecs))
	wsClients = make([]*wsClient, len(codecs))
	for i, c := range codecs {
		g := newGroup(c, sc, count)
		g.skipUnmarshal = o.SkipUnmarshal
		groups[i] = g
		id := c.Info().ID
		switch o.Transport {
		case "sse":
			tr := &http.Transport{
				DialContext:         g.dialer(),
				DisableCompression:  true,
				MaxIdleConnsPerHost: -1,
				ForceAttemptHTTP2:   false,
			}
			closers = append(closers, tr.CloseIdleConnections)
			sseClients[i] = &sseClient{http: &http.Client{Transport: tr}, base: base, gzip: o.Compress}
		case "ws":
			wsClients[i] = &wsClient{
				dialer: &websocket.Dialer{
					NetDialContext:   g.dialer(),
					HandshakeTimeout: 10 * time.Second,
					Subprotocols:     []string{ws.Subprotocol(id)},
					ReadBufferSize:   4096,
					// permessage-deflate, if the server agrees
					EnableCompression: o.Compress,
				},
				base:  base,
				proto: ws.Subprotocol(id),
			}
		}
	}
	return groups, sseClients, wsClients, func() {
		for _, c := range closers {
			c()
		}
	}
}

// phaseResults turns the counters of a finished phase and the server's
// stats before and after it into one Result per group. first is the
// phase's first intended send time; count the messages per stream.
func phaseResults(o Options, sc scenario.Scenario, groups []*group, before, after transport.ServerStats, first time.Time, count uint64) []Result {
	scope := "server"
	if o.InProcess {
		scope = "process"
	}
	peakScope := "process so far"
	if before.PeakReset {
		peakScope = "phase"
	}
	cpu := (after.CPUUserSeconds + after.CPUSystemSeconds) - (before.CPUUserSeconds + before.CPUSystemSeconds)
	out := make([]Result, len(groups))
	for i, g := range groups {
		id := g.codec.Info().ID
		t := g.totals
		r := Result{
			Transport: o.Transport, Codec: id, Scenario: sc.ID, Conns: g.conns, Rate: o.Rate,
			DurationS: o.Duration.Seconds(), Expected: uint64(g.conns) * count,
			Received: t.received, Lost: t.lost, Duplicates: t.duplicates, DecodeErrors: t.decodeErrors, CheckCPUSeconds: float64(t.checkNs) / 1e9,
			LossyConns: g.lossyConns, DisorderedConns: g.disorderedConns,
			Errors: t.errors, Reconnects: t.reconnects,
			ServerCPUSeconds: cpu, CPUScope: scope, PeakRSSBytes: after.MaxRSSBytes, PeakRSSScope: peakScope,
		}
		if last := g.lastRecv.Load(); last > 0 && t.received > 0 {
			if span := time.Duration(last - first.UnixNano()).Seconds(); span > 0 {
				r.MsgsPerS = float64(t.received) / span
			}
		}
		if o.Fanout > 1 {
			r.Fanout, r.Streams = o.Fanout, g.conns/o.Fanout
		}
		h := g.histogram()
		r.P50Ms, r.P90Ms, r.P99Ms, r.P999Ms, r.MaxMs = latencyMs(h)
		r.Histogram = encodeHistogram(h)
		if t.received > 0 {
			n := float64(t.received)
			r.WireBytesPerMsg = float64(g.wireBytes.Load()) / n
			r.PayloadBytesPerMsg = float64(t.payloadBytes) / n
			r.Base64BytesPerMsg = float64(t.base64Bytes) / n
			r.FramingBytesPerMsg = r.WireBytesPerMsg - r.PayloadBytesPerMsg - r.Base64BytesPerMsg
		}
		for _, cs := range after.Codecs {
			if cs.Codec == id {
				r.Sent, r.Delivered = cs.Published, cs.Delivered
				r.Overflows, r.Dropped, r.ReplayMisses = cs.Overflows, cs.Dropped, cs.ReplayMisses
				r.PublisherLagP50Ms, r.PublisherLagP99Ms, r.PublisherLagMaxMs = ms(cs.LagP50Us), ms(cs.LagP99Us), ms(cs.LagMaxUs)
			}
		}
		if len(g.errs) > 0 {
			r.Error = g.errs[0].Error()
		}
		if g.compressed.Load() {
			r.Compression = compressionName[o.Transport]
		}
		out[i] = r
	}
	return out
}

// ServerStats reads GET /stats of the loopback server at base (an http
// or ws URL), 10 s to answer: its process and hub figures (the codec
// entries are those of requests without run=).
func ServerStats(ctx context.Context, base string) (transport.ServerStats, error) {
	u, err := CheckLoopback(base)
	if err != nil {
		return transport.ServerStats{}, err
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: loopbackDialer(new(atomic.Int64))}}
	defer hc.CloseIdleConnections()
	return fetchStats(ctx, hc, u, "", false)
}

// fetchStats reads GET /stats?run=ID from the server; resetPeak starts a new peak
// RSS measurement there (after the snapshot is taken), with POST, since it
// changes the server's state.
func fetchStats(ctx context.Context, hc *http.Client, base *url.URL, run string, resetPeak bool) (transport.ServerStats, error) {
	u := *base
	u.Scheme = strings.NewReplacer("ws", "http").Replace(u.Scheme)
	u.Path = strings.TrimSuffix(u.Path, "/") + "/stats"
	q := url.Values{"run": {run}}
	method := http.MethodGet
	if resetPeak {
		q.Set("reset_peak", "1")
		method = http.MethodPost
	}
	u.RawQuery = q.Encode()
	return requestStats[transport.ServerStats](ctx, hc, method, u.String())
}

// getStats GETs a server's statistics document at u (10 s to answer) and
// decodes its JSON body, at most 1 MiB, into a T.
func getStats[T any](ctx context.Context, hc *http.Client, u string) (T, error) {
	return requestStats[T](ctx, hc, http.MethodGet, u)
}

// requestStats is getStats with the method given.
func requestStats[T any](ctx context.Context, hc *http.Client, method, u string) (T, error) {
	var st T
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, u, nil)
	if err != nil {
		return st, fmt.Errorf("load: %w", err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return st, fmt.Errorf("load: server stats: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("load: server stats: %s", resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st); err != nil {
		return st, fmt.Errorf("load: server stats: %w", err)
	}
	return st, nil
}
