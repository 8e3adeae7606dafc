package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport/httpapi"
)

// HTTPOptions configure RunHTTP: open-loop request/response load on the
// APIs of package transport/httpapi, driven by vegeta's attacker
// (github.com/tsenart/vegeta/v12/lib). The zero value means defaults,
// except URL.
type HTTPOptions struct {
	// URL is the server's base URL; the host must be loopback (CheckLoopback).
	URL string
	// Framework is "gin", "echo" or "http" ("nethttp" is read as "http").
	// Default "gin".
	Framework string
	// Method is "POST" (the body is the scenario value encoded; the server
	// decodes and re-encodes it) or "GET" (the server encodes only).
	// Default "POST".
	Method string
	// Codecs are the codec IDs, each in its own phase. Default encoding/json.
	Codecs []string
	// Scenario is the scenario ID. Default "user-event".
	Scenario string
	// Rate is the requests per second sent, whatever the responses do
	// (open loop: vegeta's constant pacer, with as many workers as needed).
	// Default 1000; range (0, 1e6].
	Rate float64
	// Duration is how long each phase sends. Default 10s; range [10ms, 24h].
	Duration time.Duration
	// Conns caps the connections to the server (http.Transport
	// MaxConnsPerHost, and as many kept idle). Default 1000; range [1, 100000].
	Conns int
	// Timeout bounds one request. Default 10s.
	Timeout time.Duration
	// Registry and Scenarios resolve IDs. Registry is required
	// (codec/all.Registry() for every codec); nil Scenarios means
	// scenario.Seeds.
	Registry  *codec.Registry
	Scenarios []scenario.Scenario
	// CPUScope is recorded in results: "server" when the server runs in its
	// own process, "process" when it shares this one.
	CPUScope string
}

// Defaults of HTTPOptions.
const (
	DefaultFramework    = "gin"
	DefaultHTTPMethod   = "POST"
	DefaultHTTPScenario = "user-event"
	DefaultHTTPRate     = 1000
	DefaultHTTPDuration = 10 * time.Second
	DefaultHTTPTimeout  = 10 * time.Second
)

// Effective returns o with defaults filled in, or an error naming the
// first bad field.
func (o HTTPOptions) Effective() (HTTPOptions, error) {
	if o.Framework == "" {
		o.Framework = DefaultFramework
	}
	if o.Framework == "nethttp" {
		o.Framework = "http"
	}
	if o.Method == "" {
		o.Method = DefaultHTTPMethod
	}
	o.Method = strings.ToUpper(o.Method)
	if len(o.Codecs) == 0 {
		o.Codecs = []string{DefaultCodec}
	}
	if o.Scenario == "" {
		o.Scenario = DefaultHTTPScenario
	}
	if o.Rate == 0 {
		o.Rate = DefaultHTTPRate
	}
	if o.Duration == 0 {
		o.Duration = DefaultHTTPDuration
	}
	if o.Conns == 0 {
		o.Conns = DefaultConns
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultHTTPTimeout
	}
	if o.Registry == nil {
		return o, errors.New("load: HTTPOptions.Registry is nil: pass the registry of the codecs to measure (codec/all.Registry() for every codec)")
	}
	if o.Scenarios == nil {
		o.Scenarios = scenario.Seeds()
	}
	switch {
	case !slices.Contains(httpapi.Frameworks, o.Framework):
		return o, fmt.Errorf("load: unknown framework %q (want gin, echo or nethttp)", o.Framework)
	case o.Method != "GET" && o.Method != "POST":
		return o, fmt.Errorf("load: invalid method %q (want GET or POST)", o.Method)
	case math.IsNaN(o.Rate) || o.Rate <= 0 || o.Rate > 1e6:
		return o, fmt.Errorf("load: invalid rate %g (range is (0, 1e6] requests/s)", o.Rate)
	case o.Duration < 10*time.Millisecond || o.Duration > 24*time.Hour:
		return o, fmt.Errorf("load: invalid duration %v (range is [10ms, 24h])", o.Duration)
	case o.Conns < 1 || o.Conns > 100000:
		return o, fmt.Errorf("load: invalid conns %d (range is [1, 100000])", o.Conns)
	case o.Timeout <= 0 || o.Timeout > time.Hour:
		return o, fmt.Errorf("load: invalid timeout %v (range is (0, 1h])", o.Timeout)
	}
	cs, err := o.Registry.Select(o.Codecs)
	if err != nil {
		return o, fmt.Errorf("load: %w", err)
	}
	for _, c := range cs {
		if c.Info().Kind == codec.Reference || c.Info().ReusesOutput {
			return o, fmt.Errorf("load: codec %q is not served over HTTP (a reference row, or it owns the values it returns)", c.Info().ID)
		}
	}
	if _, err := scenario.Select(o.Scenarios, []string{o.Scenario}); err != nil {
		return o, fmt.Errorf("load: %w", err)
	}
	if _, err := CheckLoopback(o.URL); err != nil {
		return o, err
	}
	return o, nil
}

// HTTPResult is the measurement of one (framework, codec) phase, or of the
// best step of a -max search. JSON names are part of serbench-load/v1
// (docs/reference.md, "JSON documents").
type HTTPResult struct {
	Framework string `json:"framework"`
	Codec     string `json:"codec"`
	Scenario  string `json:"scenario"`
	Method    string `json:"method"`
	// Rate is the requests per second offered; DurationS how long.
	Rate      float64 `json:"rate"`
	DurationS float64 `json:"duration_s"`
	Conns     int     `json:"conns"`
	// Requests is how many requests were sent; OK how many got a 2xx
	// answer; Errors the others (status, timeout, connection error).
	Requests uint64 `json:"requests"`
	OK       uint64 `json:"ok"`
	Errors   uint64 `json:"errors"`
	// RequestsPerS is OK over the span from the first request sent to the
	// last response received.
	RequestsPerS float64 `json:"requests_per_s"`
	// Latency of the OK requests, from sending to the end of the response
	// body, in milliseconds (HdrHistogram, 1µs to 10min, 3 digits).
	P50Ms  float64 `json:"p50_ms"`
	P90Ms  float64 `json:"p90_ms"`
	P99Ms  float64 `json:"p99_ms"`
	P999Ms float64 `json:"p999_ms"`
	MaxMs  float64 `json:"max_ms"`
	// BytesPerResponse and BytesPerRequest are the body bytes of one
	// response and one request (the codec's bytes; headers not counted).
	BytesPerResponse float64 `json:"bytes_per_response"`
	BytesPerRequest  float64 `json:"bytes_per_request"`
	// ServerRequests is how many requests of this (framework, codec) the
	// server answered during the phase (its /api/stats); the per-request
	// figures below divide by it.
	ServerRequests uint64 `json:"server_requests"`
	// ServerCPUUsPerReq is the server process's user+system CPU time per
	// request, in µs; CPUScope says whether the process held the load
	// client too ("process") or only the server ("server").
	ServerCPUUsPerReq float64 `json:"server_cpu_us_per_req"`
	CPUScope          string  `json:"cpu_scope"`
	// ServerHeapBytesPerReq and ServerAllocsPerReq are heap bytes and
	// objects allocated in the server process per request (runtime/metrics
	// /gc/heap/allocs:bytes and :objects), with the same scope.
	ServerHeapBytesPerReq float64 `json:"server_heap_bytes_per_req"`
	ServerAllocsPerReq    float64 `json:"server_allocs_per_req"`
	// Histogram is the latency histogram in µs, in HdrHistogram's
	// compressed, base64 encoding (hdrhistogram-go Histogram.Encode with
	// V2CompressedEncodingCookieBase), for serbench merge.
	Histogram string `json:"histogram,omitempty"`
	// SLOMs, MaxRate and Steps are set by a -max search: the p99 bound, the
	// highest rate that met it, and every step tried.
	SLOMs   float64   `json:"slo_ms,omitempty"`
	MaxRate *float64  `json:"max_rate,omitempty"`
	Steps   []MaxStep `json:"steps,omitempty"`
	// Error is the first request error, if any.
	Error string `json:"error,omitempty"`
}

// RunHTTP runs one phase per codec at o.Rate and returns one HTTPResult
// per codec. Before timing, each codec's endpoint is checked once: the
// response must decode to the scenario value. It fails on bad options, a
// server that does not answer the check, or a cancelled ctx.
func RunHTTP(ctx context.Context, o HTTPOptions) ([]HTTPResult, error) {
	o, err := o.Effective()
	if err != nil {
		return nil, err
	}
	var out []HTTPResult
	for _, id := range o.Codecs {
		r, err := HTTPPhase(ctx, o, id, o.Rate)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// HTTPPhase checks codec id's endpoint, then sends requests at rate for
// o.Duration and measures them. o must be Effective.
func HTTPPhase(ctx context.Context, o HTTPOptions, id string, rate float64) (HTTPResult, error) {
	res := HTTPResult{Framework: o.Framework, Codec: id, Scenario: o.Scenario, Method: o.Method,
		Rate: rate, DurationS: o.Duration.Seconds(), Conns: o.Conns, CPUScope: o.CPUScope}
	cs, _ := o.Registry.Select([]string{id})
	ss, _ := scenario.Select(o.Scenarios, []string{o.Scenario})
	c, sc := cs[0], ss[0]
	b, err := c.Bind(sc.Value())
	if err != nil {
		return res, fmt.Errorf("load: codec %s on scenario %s: %w", id, sc.ID, err)
	}
	body, err := codec.Encode(b, sc.Value())
	if err != nil {
		return res, fmt.Errorf("load: codec %s on scenario %s: %w", id, sc.ID, err)
	}
	base, _ := CheckLoopback(o.URL)
	target := vegeta.Target{Method: o.Method, URL: apiURL(base, o.Framework, sc.ID, id), Header: http.Header{}}
	ctype := httpapi.ContentType(c.Info().Format)
	target.Header.Set("Accept", ctype)
	if o.Method == "POST" {
		target.Body = body
		target.Header.Set("Content-Type", ctype)
	}

	var wire atomic.Int64
	tr := &http.Transport{
		DialContext:         loopbackDialer(&wire),
		MaxConnsPerHost:     o.Conns,
		MaxIdleConnsPerHost: o.Conns,
		DisableCompression:  true,
	}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: o.Timeout}
	if err := checkEndpoint(ctx, hc, target, b, sc); err != nil {
		return res, fmt.Errorf("load: %s %s with %s: %w", o.Framework, sc.ID, id, err)
	}
	before, err := fetchAPIStats(ctx, hc, base)
	if err != nil {
		return res, err
	}

	atk := vegeta.NewAttacker(vegeta.Client(hc), vegeta.Redirects(vegeta.NoFollow))
	cp := vegeta.ConstantPacer{Freq: int(math.Round(rate * 1000)), Per: 1000 * time.Second}
	if cp.Freq == 0 {
		cp.Freq = 1
	}
	pacer := endingPacer{cp, o.Duration}
	h := hdrhistogram.New(1, histMaxUs, 3)
	var first, last time.Time
	var bytesIn, bytesOut uint64
	stop := context.AfterFunc(ctx, func() { atk.Stop() })
	results := atk.Attack(vegeta.NewStaticTargeter(target), pacer, o.Duration, "serbench")
	for {
		var r *vegeta.Result
		select {
		case r = <-results:
		case <-ctx.Done():
			// vegeta's attacker may be asleep until its next hit; it
			// sees the stop when it wakes, and nothing waits for it.
		}
		if r == nil {
			break
		}
		res.Requests++
		if first.IsZero() || r.Timestamp.Before(first) {
			first = r.Timestamp
		}
		if r.Error != "" || r.Code < 200 || r.Code > 299 {
			res.Errors++
			if res.Error == "" {
				res.Error = fmt.Sprintf("status %d %s", r.Code, strings.TrimSpace(r.Error+" "+string(r.Body)))
			}
			continue
		}
		res.OK++
		if e := r.End(); e.After(last) {
			last = e
		}
		bytesIn += r.BytesIn
		bytesOut += r.BytesOut
		_ = h.RecordValue(min(max(r.Latency.Microseconds(), 1), histMaxUs)) // clamped into range
	}
	stop()
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("load: %w", err)
	}
	after, err := fetchAPIStats(ctx, hc, base)
	if err != nil {
		return res, err
	}
	fillHTTP(&res, h, before, after, first, last, bytesIn, bytesOut)
	return res, nil
}

// endingPacer is a Pacer whose attack ends at its duration: a hit due
// after the end stops it instead of being waited for (vegeta sleeps until
// the next hit before it looks at the duration, so a ConstantPacer at
// 0.001 requests/s kept a 1 s phase running for 1,000 s).
type endingPacer struct {
	vegeta.Pacer
	end time.Duration
}

var _ vegeta.Pacer = endingPacer{}

// Pace implements vegeta.Pacer.
func (p endingPacer) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	wait, stop := p.Pacer.Pace(elapsed, hits)
	return wait, stop || elapsed+wait > p.end
}

// fillHTTP sets the figures of res from its histogram, the server's stats
// before and after the phase, and the client's byte counts.
func fillHTTP(res *HTTPResult, h *hdrhistogram.Histogram, before, after httpapi.Stats, first, last time.Time, bytesIn, bytesOut uint64) {
	res.P50Ms, res.P90Ms, res.P99Ms, res.P999Ms, res.MaxMs = latencyMs(h)
	if res.OK > 0 {
		res.BytesPerResponse = float64(bytesIn) / float64(res.OK)
		res.BytesPerRequest = float64(bytesOut) / float64(res.OK)
		if span := last.Sub(first).Seconds(); span > 0 {
			res.RequestsPerS = float64(res.OK) / span
		}
	}
	res.Histogram = encodeHistogram(h)
	served := func(st httpapi.Stats) uint64 {
		for _, rc := range st.Requests {
			if rc.Framework == res.Framework && rc.Codec == res.Codec {
				return rc.OK + rc.Errors
			}
		}
		return 0
	}
	res.ServerRequests = served(after) - served(before)
	if n := float64(res.ServerRequests); n > 0 {
		cpu := (after.CPUUserSeconds + after.CPUSystemSeconds) - (before.CPUUserSeconds + before.CPUSystemSeconds)
		res.ServerCPUUsPerReq = cpu * 1e6 / n
		res.ServerHeapBytesPerReq = float64(after.HeapAllocBytes-before.HeapAllocBytes) / n
		res.ServerAllocsPerReq = float64(after.HeapAllocObjects-before.HeapAllocObjects) / n
	}
}

func apiURL(base *url.URL, framework, scenarioID, codecID string) string {
	u := *base
	u.Scheme = strings.NewReplacer("wss", "https", "ws", "http").Replace(u.Scheme)
	u.Path = strings.TrimSuffix(u.Path, "/") + "/api/" + framework + "/" + scenarioID
	u.RawQuery = url.Values{"codec": {codecID}}.Encode()
	return u.String()
}

// checkEndpoint sends t once and checks that the response decodes, with
// b, to the scenario value.
func checkEndpoint(ctx context.Context, hc *http.Client, t vegeta.Target, b codec.Binding, sc scenario.Scenario) error {
	req, err := http.NewRequestWithContext(ctx, t.Method, t.URL, bytes.NewReader(t.Body))
	if err != nil {
		return err
	}
	req.Header = t.Header.Clone()
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, httpapi.DefaultMaxBodyBytes))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("check request: %s: %s", resp.Status, bytes.TrimSpace(data))
	}
	out, err := b.Unmarshal(data)
	if err == nil {
		out, err = codec.Value(b, out)
	}
	if err != nil {
		return fmt.Errorf("check request: decode %d-byte response: %w", len(data), err)
	}
	if err := sc.Diff(out); err != nil {
		return fmt.Errorf("check request: response differs from the scenario value: %w", err)
	}
	return nil
}

// fetchAPIStats reads GET /api/stats.
func fetchAPIStats(ctx context.Context, hc *http.Client, base *url.URL) (httpapi.Stats, error) {
	u := *base
	u.Scheme = strings.NewReplacer("wss", "https", "ws", "http").Replace(u.Scheme)
	u.Path = strings.TrimSuffix(u.Path, "/") + "/api/stats"
	return getStats[httpapi.Stats](ctx, hc, u.String())
}
