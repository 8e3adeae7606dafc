package plan

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport/server"
)

// serverRun is one run of `serbench serve` (a child process) under load at
// a total rate, fan-out 1.
type serverRun struct {
	cpuNsPerMsg float64 // server process CPU per published message
	result      load.Result
}

// Transport measurement: two seeds of different sizes, TransportCodec, at
// the planned rate for at least transportDuration each (as long as each
// -verify run, so that both amortize the run's fixed costs alike), after a
// quick bench run of TransportCodec's marshal (transportBenchtime,
// transportCount).
const (
	transportDuration  = 2 * time.Second
	TransportCodec     = "encoding/json"
	transportBenchtime = 5 * time.Millisecond
	transportCount     = 3
	// verifyConnRate is the rate per connection -verify asks for: the
	// total rate is spread over ceil(rate/verifyConnRate) connections.
	verifyConnRate = 500
	// maxVerifyConns caps the connections of one -verify run.
	maxVerifyConns = 2000
)

// runServer starts a server in a child process and drives it with load
// at rate messages per second in total (per connection at most
// verifyConnRate) for d, one codec of reg and one seed scenario.
func runServer(ctx context.Context, reg *codec.Registry, via, codecID, scenarioID string, rate float64, d time.Duration) (serverRun, error) {
	conns := int(math.Ceil(rate / verifyConnRate))
	if conns > maxVerifyConns {
		return serverRun{}, fmt.Errorf("rate %g needs more than %d connections at %d msg/s each", rate, maxVerifyConns, verifyConnRate)
	}
	conns = max(conns, 1)
	if err := load.RaiseOpenFiles(uint64(conns) + 64); err != nil {
		return serverRun{}, err
	}
	url, stop, err := server.StartProcess(ctx)
	if err != nil {
		return serverRun{}, err
	}
	defer stop()
	rs, err := load.Run(ctx, load.Options{Transport: via, URL: url, Conns: conns, Rate: rate / float64(conns),
		Duration: d, Codecs: []string{codecID}, Scenario: scenarioID, Grace: time.Second, Registry: reg})
	if err != nil {
		return serverRun{}, err
	}
	if len(rs) != 1 {
		return serverRun{}, fmt.Errorf("load returned %d results, want 1", len(rs))
	}
	r := rs[0]
	if r.Error != "" {
		return serverRun{}, fmt.Errorf("load: %s", r.Error)
	}
	if r.Sent == 0 {
		return serverRun{}, fmt.Errorf("the server sent no message")
	}
	return serverRun{cpuNsPerMsg: r.ServerCPUSeconds * 1e9 / float64(r.Sent), result: r}, nil
}

// MeasureTransport measures the transport's own cost: the server's CPU per
// message for the smallest and the largest seed (by encoding/json size)
// with encoding/json at rate messages per second for d (at least
// transportDuration), minus encoding/json's marshal time for each (a quick
// bench run), fitted as NsPerMsg + NsPerByte × payload bytes through the
// two points; FrameBytes is the framing load counts, averaged; P99Ms the
// smaller seed's p99; Base64 is set for SSE. via is "sse" or "ws"; reg
// holds TransportCodec. The server is this program again
// (server.StartProcess): its main must serve server.ChildRole.
func MeasureTransport(ctx context.Context, reg *codec.Registry, via string, rate float64, d time.Duration) (Transport, error) {
	c, ok := reg.Lookup(TransportCodec)
	if !ok {
		return Transport{}, fmt.Errorf("codec %s not registered", TransportCodec)
	}
	seeds := scenario.Seeds()
	ms, err := bench.Matrix(ctx, []codec.Codec{c}, seeds, bench.Options{Benchtime: transportBenchtime, Count: transportCount})
	if err != nil {
		return Transport{}, err
	}
	type point struct {
		id          string
		marshal     float64
		size        float64
		cpu, frames float64
	}
	var (
		pts []point
		p99 float64
	)
	for _, r := range ms {
		if r.Op == bench.OpMarshal && r.OK {
			pts = append(pts, point{id: r.Scenario, marshal: r.NsPerOp, size: float64(r.SizeBytes)})
		}
	}
	if len(pts) < 2 {
		return Transport{}, fmt.Errorf("%s marshals fewer than two seeds", TransportCodec)
	}
	slices.SortFunc(pts, func(a, b point) int { return int(a.size - b.size) })
	pts = []point{pts[0], pts[len(pts)-1]}
	for i := range pts {
		run, err := runServer(ctx, reg, via, TransportCodec, pts[i].id, rate, max(d, transportDuration))
		if err != nil {
			return Transport{}, fmt.Errorf("%s: %w", pts[i].id, err)
		}
		pts[i].cpu = max(run.cpuNsPerMsg-pts[i].marshal, 0)
		pts[i].size = run.result.PayloadBytesPerMsg
		pts[i].frames = run.result.FramingBytesPerMsg
		if i == 0 {
			p99 = run.result.P99Ms
		}
	}
	t := Transport{FrameBytes: (pts[0].frames + pts[1].frames) / 2, Base64: via == "sse", P99Ms: p99}
	if dx := pts[1].size - pts[0].size; dx > 0 {
		t.NsPerByte = max((pts[1].cpu-pts[0].cpu)/dx, 0)
	}
	t.NsPerMsg = max(pts[0].cpu-t.NsPerByte*pts[0].size, 0)
	return t, nil
}

// VerifyPlan runs the top choices of res (those meeting the budgets, else
// the closest) against a real server for d each and returns predicted
// against measured: the first top rows with compressor none. Only those
// can be run: the servers compress per stream (gzip, permessage-deflate),
// not per message; a row with a compressor ranked above them gets a Check
// with that Error. Only seed scenarios can be served (else one Check says
// so). reg holds the codecs of opts. log, when not nil, gets a line as
// each run starts.
func VerifyPlan(ctx context.Context, log io.Writer, reg *codec.Registry, via, scenarioID string, in Inputs, opts []Option, res Result, top int, d time.Duration) []Check {
	var out []Check
	seed := false
	for _, s := range scenario.Seeds() {
		seed = seed || s.ID == scenarioID
	}
	one := in
	one.Fanout = 1
	ran := 0
	for _, r := range res.Rows {
		if ran == top || r.Error != "" {
			break
		}
		c := Check{Codec: r.Codec, Compressor: r.Compressor, Rate: in.Rate}
		switch {
		case !seed:
			c.Error = "not verified: the server serves only the seed scenarios"
			return append(out, c)
		case r.Compressor != None:
			c.Error = "not verified: the servers compress per stream, not per message with " + r.Compressor
			out = append(out, c)
			continue
		}
		ran++
		i := slices.IndexFunc(opts, func(o Option) bool { return o.Codec == r.Codec && o.Compressor == r.Compressor })
		pred, err := Compute(one, opts[i:i+1])
		if err != nil {
			c.Error = err.Error()
			out = append(out, c)
			continue
		}
		p := pred.Rows[0]
		c.PredictedCores, c.PredictedWire, c.PredictedP99 = p.SendCores.Mid, p.WireBytes, p.P99Ms
		if log != nil {
			fmt.Fprintf(log, "serbench plan: verifying %s on %s at %g msg/s for %v\n", r.Codec, scenarioID, in.Rate, d)
		}
		run, err := runServer(ctx, reg, via, r.Codec, scenarioID, in.Rate, d)
		if err != nil {
			c.Error = err.Error()
			out = append(out, c)
			continue
		}
		lr := run.result
		c.Achieved = lr.MsgsPerS
		c.MeasuredCores = run.cpuNsPerMsg * in.Rate / 1e9
		c.MeasuredWire = lr.WireBytesPerMsg
		c.MeasuredP99 = lr.P99Ms
		switch {
		case lr.Lost > 0:
			c.Limit = fmt.Sprintf("%d of %d messages lost: the rate was not reached", lr.Lost, lr.Expected)
		case c.Achieved < 0.95*in.Rate && c.MeasuredCores >= 0.9*in.Cores:
			c.Limit = fmt.Sprintf("rate not reached: the server's CPU (%.2g of %g cores)", c.MeasuredCores, in.Cores)
		case c.Achieved < 0.95*in.Rate:
			c.Limit = "rate not reached: the load client (it shares this machine)"
		}
		out = append(out, c)
	}
	return out
}

// ParseTransport reads a transport cost given as text:
// NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES[,P99_MS], each a number >= 0 (the
// fields of Transport, Base64 aside).
func ParseTransport(s string) (Transport, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return Transport{}, fmt.Errorf("plan: invalid transport %q (want NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES[,P99_MS])", s)
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return Transport{}, fmt.Errorf("plan: invalid transport %q: %q is not a number >= 0", s, p)
		}
		v[i] = x
	}
	return Transport{NsPerMsg: v[0], NsPerByte: v[1], FrameBytes: v[2], P99Ms: v[3]}, nil
}
