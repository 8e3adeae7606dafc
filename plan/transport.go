package plan

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
	"github.com/serbench/serbench/transport/server"
)

// serverRun is one run of `serbench serve` (a child process) under load at
// a total rate and a fan-out.
type serverRun struct {
	cpuNsPerMsg  float64 // server process CPU per published message
	recvNsPerMsg float64 // this process's CPU (the load client) per published message
	result       load.Result
}

// Transport measurement: two seeds of different sizes, TransportCodec, at
// the planned rate for at least transportDuration each (as long as each
// -verify run, so that both amortize the run's fixed costs alike), after a
// quick bench run of TransportCodec's marshal (transportBenchtime,
// transportCount).
const (
	transportDuration  = 3 * time.Second
	TransportCodec     = "encoding/json"
	transportBenchtime = 5 * time.Millisecond
	transportCount     = 3
	// transportRounds is how many times MeasureTransport runs each seed,
	// interleaved; refBenchtime and refCount time the reference between
	// two runs.
	transportRounds = 5
	refBenchtime    = 10 * time.Millisecond
	refCount        = 5
	// verifyConnRate is the rate per stream -verify asks for: the total
	// rate is spread over ceil(rate/verifyConnRate) streams, each with
	// fan-out connections.
	verifyConnRate = 500
	// MaxVerifyConns caps the connections of one -verify run: streams ×
	// fan-out.
	MaxVerifyConns = 5000
)

// VerifyConns returns the streams and connections a -verify run at rate
// messages per second and fanout connections per stream opens:
// ceil(rate/500) streams (at least 1) of fanout connections each. More
// than MaxVerifyConns connections is an error naming the limit and the
// flags to change.
func VerifyConns(rate float64, fanout int) (streams, conns int, err error) {
	streams = max(int(math.Ceil(rate/verifyConnRate)), 1)
	if n := float64(streams) * float64(fanout); n > MaxVerifyConns {
		return 0, 0, fmt.Errorf("plan: -verify at rate %g and fan-out %d needs %.0f connections (%d streams of at most %d msg/s, %d connections each), more than the %d it opens: lower -rate or -fanout",
			rate, fanout, n, streams, verifyConnRate, fanout, MaxVerifyConns)
	}
	return streams, streams * fanout, nil
}

// runServer starts a server in a child process serving srv and drives it
// with load at rate messages per second in total (per stream at most
// verifyConnRate), fanout connections per stream, for d, one codec of reg
// and one scenario of srv; compressor, when not None, is the one serve
// applies (ServeCompressors), which the client then asks for and the
// server must agree to. The load client's CPU is this process's
// (getrusage) over the run; with skipUnmarshal the client reads each
// message without unmarshaling it (load.Options.SkipUnmarshal), so that
// CPU is the receiving transport's alone.
func runServer(ctx context.Context, reg *codec.Registry, srv Served, via, codecID, scenarioID, compressor string, rate float64, fanout int, d time.Duration, skipUnmarshal bool) (serverRun, error) {
	streams, conns, err := VerifyConns(rate, fanout)
	if err != nil {
		return serverRun{}, err
	}
	if err := load.RaiseOpenFiles(uint64(conns) + 64); err != nil {
		return serverRun{}, err
	}
	url, stop, err := server.StartProcess(ctx, srv.Arg)
	if err != nil {
		return serverRun{}, err
	}
	defer stop()
	before, err := env.ProcessUsage()
	if err != nil {
		return serverRun{}, err
	}
	rs, err := load.Run(ctx, load.Options{Transport: via, URL: url, Conns: conns, Fanout: fanout, Rate: rate / float64(streams),
		Duration: d, Codecs: []string{codecID}, Scenario: scenarioID, Scenarios: srv.Scenarios, Grace: time.Second, Registry: reg, Compress: compressor != None,
		SkipUnmarshal: skipUnmarshal})
	if err != nil {
		return serverRun{}, err
	}
	after, err := env.ProcessUsage()
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
	if compressor != None && r.Compression != loadCompression(compressor) {
		return serverRun{}, fmt.Errorf("the server did not agree to %s (compression %q)", compressor, r.Compression)
	}
	// Less the client's checks (building each connection's decoder,
	// comparing its first message), which a receiver does not make.
	recv := (after.User + after.System) - (before.User + before.System) - time.Duration(r.CheckCPUSeconds*1e9)
	return serverRun{cpuNsPerMsg: r.ServerCPUSeconds * 1e9 / float64(r.Sent), recvNsPerMsg: float64(recv) / float64(r.Sent), result: r}, nil
}

// MeasureTransport measures the transport's own cost: the server's CPU per
// published message for the smallest and the largest payload (by
// encoding/json size) among the seeds and the planned scenarios (IDs)
// the server serves (srv: annot/* and corpus documents), so that the
// per-byte cost is measured over the sizes being planned, with encoding/json at rate messages per second and
// fan-out connections per stream (lowered to what MaxVerifyConns holds)
// for d (at least transportDuration), minus encoding/json's marshal time
// for each (in CPU time, marshalTimer's median), divided by the fan-out: the cost per
// delivered message, fitted as NsPerMsg + NsPerByte × payload bytes
// through the two points. Each point is measured transportRounds times,
// the two payloads interleaved, and is the median of its rounds
// (fitTransport): at a large fan-out a server that gets the CPU late
// writes several messages per wake-up and pays less per message, and how
// often that happens varies from run to run; five rounds of at least 3 s
// (transportRounds, transportDuration) and their median make one
// disturbed round move the figure no more than the middle one, and
// Spread reports the rounds' range. Between the runs a reference is
// timed in this process (encoding/json's marshal of the smaller payload,
// marshalTimer), and ReferenceNs and ReferenceRange report it as a
// reading of the machine's speed; the fit does not divide by it. It used
// to: each round over the reference around it, times the fastest
// reference. On this project's 2-vCPU VM that reference, a CPU-bound
// loop in a process whose load client had just stopped, ranged 411-689
// ns within one plan while the rounds themselves ranged 89-98 µs, so the
// pairing added noise instead of cancelling it, and the fastest
// reference stated the transport at a speed the verify runs never saw
// (docs/plan.md, "The same plan twice"). Measured at the planned fan-out, the costs paid
// once per published message (the scheduler, the stream) are shared by
// its receivers as they are in the run being planned. RecvNsPerMsg and
// RecvNsPerByte are fitted the same way from the load client's CPU (this
// process's rusage over each run) per delivered message, the client
// reading every message without unmarshaling it
// (load.Options.SkipUnmarshal). It used to unmarshal them and have
// encoding/json's unmarshal time (in thread CPU) taken off; the
// garbage collection of the decoded values (about a third more CPU on
// annot/series@medium, 386 KB of JSON) then stayed in the fit as a cost
// per byte and was charged to every codec's receivers by their bytes: a
// binary codec's receivers at 0.29-0.47 of the prediction (docs/plan.md,
// "The receivers' transport, without a decoder"). Each round also runs
// the larger payload with the client unmarshaling it:
// RecvNsPerAllocByte is that client's CPU per message less that of the
// client that did not (medians), less encoding/json's unmarshal ns/op,
// over its B/op (fitRecvGC): the collection of decoded values, which a benchmark
// loop on a small heap does not pay in full. FrameBytes is the
// framing load counts on the smaller payload (on a payload of hundreds
// of KB, bytes read of a message that the run's end cut off count as
// framing); P99Ms the smaller payload's p99, the
// median over the rounds; Base64 is set for SSE; MeasuredFanout the
// fan-out used. via is "sse" or "ws"; reg
// holds TransportCodec. The server is this program again
// (server.StartProcess): its main must serve server.ChildRole.
func MeasureTransport(ctx context.Context, reg *codec.Registry, via string, rate float64, fanout int, d time.Duration, planned []string, srv Served) (Transport, error) {
	streams, _, err := VerifyConns(rate, 1)
	if err != nil {
		return Transport{}, err
	}
	fanout = max(min(fanout, MaxVerifyConns/streams), 1)
	c, ok := reg.Lookup(TransportCodec)
	if !ok {
		return Transport{}, fmt.Errorf("codec %s not registered", TransportCodec)
	}
	points := scenario.Seeds()
	for _, s := range srv.Scenarios {
		if slices.Contains(planned, s.ID) && !slices.ContainsFunc(points, func(p scenario.Scenario) bool { return p.ID == s.ID }) {
			points = append(points, s)
		}
	}
	ms, err := bench.Matrix(ctx, []codec.Codec{c}, points, bench.Options{Benchtime: transportBenchtime, Count: transportCount})
	if err != nil {
		return Transport{}, err
	}
	type point struct {
		id      string
		marshal float64
		size    float64
		frames  float64
	}
	var pts []point
	unmarshal := map[string]results.Row{}
	for _, r := range ms {
		if r.Op == results.OpMarshal && r.OK {
			pts = append(pts, point{id: r.Scenario, marshal: r.NsPerOp, size: float64(r.SizeBytes)})
		}
		if r.Op == results.OpUnmarshal && r.OK {
			unmarshal[r.Scenario] = r
		}
	}
	if len(pts) < 2 {
		return Transport{}, fmt.Errorf("%s marshals fewer than two seeds", TransportCodec)
	}
	slices.SortFunc(pts, func(a, b point) int { return int(a.size - b.size) })
	pts = []point{pts[0], pts[len(pts)-1]}
	for i := range pts { // the marshal time subtracted, in CPU time as the server's
		timer, err := marshalTimer(c, pts[i].id, points)
		if err != nil {
			return Transport{}, err
		}
		iv, err := timer()
		if err != nil {
			return Transport{}, err
		}
		pts[i].marshal = iv.Mid
	}
	timeRef, err := marshalTimer(c, pts[0].id, points)
	if err != nil {
		return Transport{}, err
	}
	ref := func() (float64, error) {
		iv, err := timeRef()
		return iv.Lo, err
	}
	prev, err := ref()
	if err != nil {
		return Transport{}, err
	}
	refs := []float64{prev}
	var costs, recv [2][]float64
	var p99s, decoded []float64
	for range transportRounds {
		for i := range pts {
			run, err := runServer(ctx, reg, srv, via, TransportCodec, pts[i].id, None, rate, fanout, max(d, transportDuration), true)
			if err != nil {
				return Transport{}, fmt.Errorf("%s: %w", pts[i].id, err)
			}
			next, err := ref()
			if err != nil {
				return Transport{}, err
			}
			costs[i] = append(costs[i], perDelivered(run.cpuNsPerMsg, pts[i].marshal, fanout))
			// The client reads every copy without unmarshaling it.
			recv[i] = append(recv[i], run.recvNsPerMsg/float64(fanout))
			refs = append(refs, next)
			pts[i].size = run.result.PayloadBytesPerMsg
			pts[i].frames = run.result.FramingBytesPerMsg
			if i == 0 {
				p99s = append(p99s, run.result.P99Ms)
			}
		}
		// The larger payload again, the client unmarshaling it.
		run, err := runServer(ctx, reg, srv, via, TransportCodec, pts[1].id, None, rate, fanout, max(d, transportDuration), false)
		if err != nil {
			return Transport{}, fmt.Errorf("%s: %w", pts[1].id, err)
		}
		decoded = append(decoded, run.recvNsPerMsg/float64(fanout))
	}
	sizes := [2]float64{pts[0].size, pts[1].size}
	t := fitTransport(sizes, costs)
	rt := fitTransport(sizes, recv)
	t.RecvNsPerMsg, t.RecvNsPerByte = rt.NsPerMsg, rt.NsPerByte
	u := unmarshal[pts[1].id]
	t.RecvNsPerAllocByte = fitRecvGC(decoded, recv[1], u.NsPerOp, float64(u.BytesPerOp))
	t.FrameBytes, t.Base64, t.P99Ms, t.MeasuredFanout = pts[0].frames, via == "sse", stats.Median(p99s), fanout
	t.ReferenceNs = stats.Median(refs)
	t.ReferenceRange = &Interval{Mid: t.ReferenceNs, Lo: slices.Min(refs), Hi: slices.Max(refs)}
	return t, nil
}

// fitRecvGC returns a receiver's CPU ns per byte its decoding allocates
// beyond the unmarshal's own time: decoded and skipped hold the load
// client's CPU per delivered message of one payload in each round, with
// and without unmarshaling it; unmarshalNs and allocBytes are the
// unmarshal's ns/op and B/op (bench). The medians' difference less
// unmarshalNs, over allocBytes; 0 when that is negative or nothing was
// allocated.
func fitRecvGC(decoded, skipped []float64, unmarshalNs, allocBytes float64) float64 {
	if allocBytes <= 0 || len(decoded) == 0 || len(skipped) == 0 {
		return 0
	}
	return max(stats.Median(decoded)-stats.Median(skipped)-unmarshalNs, 0) / allocBytes
}

// fitTransport fits the transport's cost per delivered message from the
// rounds of MeasureTransport: costs[i] holds each round's server CPU per
// delivered message of the payload of sizes[i] bytes, in ns. A point is
// the median of its rounds, so that a round the machine disturbed (a
// server that got the CPU late and wrote several messages per wake-up)
// moves it no further than the middle round; NsPerMsg and NsPerByte are
// the line through the two points, neither negative. Spread is the
// smaller payload's rounds: median, cheapest, dearest.
func fitTransport(sizes [2]float64, costs [2][]float64) Transport {
	var cpu [2]float64
	for i := range cpu {
		cpu[i] = stats.Median(costs[i])
	}
	t := Transport{Rounds: len(costs[0])}
	if dx := sizes[1] - sizes[0]; dx > 0 {
		t.NsPerByte = max((cpu[1]-cpu[0])/dx, 0)
	}
	t.NsPerMsg = max(cpu[0]-t.NsPerByte*sizes[0], 0)
	if len(costs[0]) > 0 {
		t.Spread = &Interval{Mid: cpu[0], Lo: slices.Min(costs[0]), Hi: slices.Max(costs[0])}
		t.SpreadBytes = sizes[0]
	}
	return t
}

// VerifyPlan runs the top choices of res (those meeting the budgets, else
// the closest) against a real server for d each, at in.Fanout connections
// per stream (load's Options.Fanout), and returns predicted (the model at
// in.Fanout) against measured: for None and for each compressor serve
// applies on via (ServeCompressors: permessage-deflate on ws, sse-gzip
// on sse, which the client asks for), the first top rows with it, in
// rank order. A row with
// another compressor among the first top rows gets a Check with an Error
// saying so. Only srv's scenarios can be served (else one Check says
// so); the server child is started with srv.Arg. reg holds the codecs of opts. log, when not nil, gets a line as
// each run starts.
func VerifyPlan(ctx context.Context, log io.Writer, reg *codec.Registry, via, scenarioID string, in Inputs, opts []Option, res Result, top int, d time.Duration, srv Served) []Check {
	var out []Check
	seed := slices.ContainsFunc(srv.Scenarios, func(s scenario.Scenario) bool { return s.ID == scenarioID })
	ran := map[string]int{} // runs by compressor
	for rank, r := range res.Rows {
		if r.Error != "" {
			break
		}
		c := Check{Codec: r.Codec, Compressor: r.Compressor, Rate: in.Rate, Fanout: in.Fanout}
		switch {
		case !seed:
			c.Error = "not verified: the server serves the seed scenarios, annot/* and the corpus documents plan measured, not a saved run's (-from)"
			return append(out, c)
		case r.Compressor != None && !slices.Contains(ServeCompressors(via), r.Compressor):
			if rank < top {
				c.Error = fmt.Sprintf("not verified: serve does not apply %s on %s", r.Compressor, via)
				out = append(out, c)
			}
			continue
		case ran[r.Compressor] == top:
			continue
		}
		ran[r.Compressor]++
		i := slices.IndexFunc(opts, func(o Option) bool { return o.Codec == r.Codec && o.Compressor == r.Compressor })
		pred, err := Compute(in, opts[i:i+1])
		if err != nil {
			c.Error = err.Error()
			out = append(out, c)
			continue
		}
		p := pred.Rows[0]
		c.PredictedCores, c.PredictedRecvCores, c.PredictedWire, c.PredictedP99 = p.SendCores.Mid, p.RecvCores.Mid, p.WireBytes, p.P99Ms
		if log != nil {
			fmt.Fprintf(log, "serbench plan: verifying %s (%s) on %s at %g msg/s, fan-out %d, for %v\n", r.Codec, r.Compressor, scenarioID, in.Rate, in.Fanout, d)
		}
		run, err := runServer(ctx, reg, srv, via, r.Codec, scenarioID, r.Compressor, in.Rate, in.Fanout, d, false)
		if err != nil {
			c.Error = err.Error()
			out = append(out, c)
			continue
		}
		lr := run.result
		c.Achieved = lr.MsgsPerS / float64(in.Fanout) // every connection counts its copy
		c.MeasuredCores = run.cpuNsPerMsg * in.Rate / 1e9
		c.MeasuredRecvCores = run.recvNsPerMsg * in.Rate / 1e9
		c.CodecShare = codecShare(opts[i], in.Rate, c.MeasuredCores)
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

// perDelivered is the transport's server CPU per delivered message: the
// server's ns per published message less the codec's marshal ns (paid
// once per published message), shared by its fanout deliveries; never
// negative.
func perDelivered(nsPerPublished, marshalNs float64, fanout int) float64 {
	return max((nsPerPublished-marshalNs)/float64(max(fanout, 1)), 0)
}

// codecShare is the share of measured server cores (at rate messages per
// second) the codec's own work was: o's marshal and compression ns per
// message, on one goroutine, × rate; 0 without a measured figure.
func codecShare(o Option, rate, measuredCores float64) float64 {
	if measuredCores <= 0 {
		return 0
	}
	return (o.MarshalNs.Mid + o.CompressNs.Mid) * rate / 1e9 / measuredCores
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

// bindScenario binds c to scenarioID, one of among, and returns the
// binding and the scenario; what names the timer in its errors.
func bindScenario(what string, c codec.Codec, scenarioID string, among []scenario.Scenario) (codec.Binding, scenario.Scenario, error) {
	i := slices.IndexFunc(among, func(s scenario.Scenario) bool { return s.ID == scenarioID })
	if i < 0 {
		return nil, scenario.Scenario{}, fmt.Errorf("plan: %s: no scenario %q", what, scenarioID)
	}
	s := among[i]
	b, err := codec.BindNew(c, s.Value(), s.New)
	if err != nil {
		return nil, s, fmt.Errorf("plan: %s %s on %s: %w", what, c.Info().ID, s.ID, err)
	}
	return b, s, nil
}

// marshalTimer returns a function that times c's marshal of scenarioID
// (one of among) on one thread of this process, refCount samples of
// refBenchtime of CPU time (cpuTimeOp): its median is the marshal time
// taken from a run's server CPU, and its fastest sample on the smaller
// payload is the reference MeasureTransport reports as a machine
// reading. A codec that cannot marshal the seed is an error.
func marshalTimer(c codec.Codec, scenarioID string, among []scenario.Scenario) (func() (Interval, error), error) {
	b, s, err := bindScenario("marshal timer", c, scenarioID, among)
	if err != nil {
		return nil, err
	}
	v := s.Value()
	marshal := func() error {
		_, err := b.Marshal(v)
		return err
	}
	return func() (Interval, error) {
		iv, err := cpuTimeOp(marshal, refBenchtime, refCount)
		if err != nil {
			return iv, fmt.Errorf("plan: marshal timer %s on %s: %w", c.Info().ID, s.ID, err)
		}
		return iv, nil
	}, nil
}

// cpuTimeBatch is how many calls cpuTimeOp makes between two readings of
// the clock (a system call).
const cpuTimeBatch = 16

// cpuTimeOp times op over count samples (at least 1): its CPU time per
// call on this goroutine's thread (bench.ThreadCPUTime), each sample
// running op until it has had benchtime of CPU (at least 1 ms); the
// median, with the smallest and largest sample as its interval. Like the
// server's rusage it leaves out the time the thread waits for a CPU on a
// busy machine, which wall time would count. Where the thread's CPU time
// cannot be read, wall time.
func cpuTimeOp(op func() error, benchtime time.Duration, count int) (Interval, error) {
	benchtime = max(benchtime, time.Millisecond)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := bench.ThreadCPUTime
	if _, err := now(); err != nil {
		start := time.Now()
		now = func() (time.Duration, error) { return time.Since(start), nil }
	}
	ns := make([]float64, max(count, 1))
	for i := range ns {
		t0, _ := now() // read once above without error
		n, t := 0, t0
		for t-t0 < benchtime {
			for range cpuTimeBatch {
				if err := op(); err != nil {
					return Interval{}, err
				}
			}
			n += cpuTimeBatch
			t, _ = now()
		}
		ns[i] = float64(t-t0) / float64(n)
	}
	slices.Sort(ns)
	return Interval{Mid: stats.Median(ns), Lo: ns[0], Hi: ns[len(ns)-1]}, nil
}
