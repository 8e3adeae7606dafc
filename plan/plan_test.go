package plan

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// in is the traffic of the hand computations below: 1000 msg/s to 10
// receivers, 2 server cores, $0.04 per vCPU-hour, $0.09 per GB, and a
// transport costing 2000 ns per delivered message, 1 ns per byte and 8
// bytes of framing.
var in = Inputs{Rate: 1000, Fanout: 10, Cores: 2, CPUPrice: 0.04, EgressPrice: 0.09,
	Transport: Transport{NsPerMsg: 2000, NsPerByte: 1, FrameBytes: 8}}

// optA: marshal 1000 ns, unmarshal 2000 ns, 100 bytes, no compression,
// parallel efficiency not measured (1).
var optA = Option{Codec: "a", Compressor: None, MarshalNs: Interval{1000, 900, 1200}, UnmarshalNs: Point(2000), PayloadBytes: 100}

// optB: marshal 500 + compress 3000 ns at efficiency 0.8, unmarshal 800 +
// decompress 400 ns at efficiency 0.5, 40 bytes.
var optB = Option{Codec: "b", Compressor: "zstd", MarshalNs: Point(500), CompressNs: Point(3000), UnmarshalNs: Point(800),
	DecompressNs: Point(400), PayloadBytes: 40, SendEfficiency: 0.8, RecvEfficiency: 0.5}

// optFast is optA with marshal at 500 ns: the same bytes, fewer cores.
var optFast = Option{Codec: "fast", Compressor: None, MarshalNs: Point(500), UnmarshalNs: Point(2000), PayloadBytes: 100}

// TestComputeTieBreak: with no prices every option costs $0, and the
// ranking falls back to cores (send + receive), then wire bytes, whatever
// the order the options came in.
func TestComputeTieBreak(t *testing.T) {
	free := in
	free.CPUPrice, free.EgressPrice = 0, 0
	small := optA
	small.Codec, small.PayloadBytes = "small", 60
	for _, order := range [][]Option{{optA, small, optFast}, {optFast, small, optA}, {small, optA, optFast}} {
		res, err := Compute(free, order)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Rows {
			got = append(got, r.Codec)
		}
		// fast: 500 ns less marshal per message; small: a's codec time but
		// 40 fewer bytes, so 40 ns less transport time per delivered
		// message (1 ns per byte).
		if want := "fast small a"; strings.Join(got, " ") != want {
			t.Errorf("order %s: ranked %s, want %s", order[0].Codec, strings.Join(got, " "), want)
		}
	}
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

func TestComputeByHand(t *testing.T) {
	res, err := Compute(in, []Option{optA, optB})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Met != 2 {
		t.Fatalf("rows %d, met %d", len(res.Rows), res.Met)
	}
	// b is cheaper (below), so it ranks first.
	b, a := res.Rows[0], res.Rows[1]
	if a.Codec != "a" || b.Codec != "b" {
		t.Fatalf("order %s, %s; want b, a", res.Rows[0].Codec, res.Rows[1].Codec)
	}
	// a: send = 1000 + 10·(2000 + 1·100) = 22000 ns/msg → 0.022 cores at
	// 1000/s (interval: marshal 900..1200 → 21900..22200 → 0.0219..0.0222);
	// receive = 10·2000 = 20000 ns → 0.02 cores; total 0.042.
	near(t, "a send cores", a.SendCores.Mid, 0.022)
	near(t, "a send cores lo", a.SendCores.Lo, 0.0219)
	near(t, "a send cores hi", a.SendCores.Hi, 0.0222)
	near(t, "a recv cores", a.RecvCores.Mid, 0.02)
	near(t, "a cores", a.Cores.Mid, 0.042)
	// Wire: 100 + 8 = 108 B; egress 1000·10·108 = 1,080,000 B/s.
	near(t, "a wire", a.WireBytes, 108)
	near(t, "a egress", a.EgressBps, 1.08e6)
	// CPU: 0.042 · 730 · 0.04 = 1.2264; egress: 1.08e6 · 2,628,000 s / 1e9
	// = 2838.24 GB · 0.09 = 255.4416; total 256.668.
	near(t, "a cpu cost", a.CPUCost, 1.2264)
	near(t, "a egress cost", a.EgressCost, 255.4416)
	near(t, "a cost", a.Cost, 256.668)
	// CPU binds (no bandwidth given) at 2e9 / 22000 = 90909.0909 msg/s.
	if a.Binds != LimitCPU {
		t.Errorf("a binds %s", a.Binds)
	}
	near(t, "a max rate", a.MaxRate, 2e9/22000.0)
	// p99: one message in the server 1000 + 2000 + 100 = 3100 ns; ρ =
	// 0.022/2 = 0.011; ln(100)·3100/0.989 + 2000 ns = 16434.8 ns.
	near(t, "a p99", a.P99Ms, (math.Log(100)*3100/0.989+2000)/1e6)

	// b: send = (500 + 3000)/0.8 + 10·(2000 + 40) = 4375 + 20400 = 24775
	// ns; receive = 10·(800 + 400)/0.5 = 24000 ns.
	near(t, "b send cores", b.SendCores.Mid, 0.024775)
	near(t, "b recv cores", b.RecvCores.Mid, 0.024)
	// Wire 48 B, egress 480,000 B/s; CPU 0.048775·730·0.04 = 1.42423;
	// egress 1261.44 GB · 0.09 = 113.5296.
	near(t, "b egress", b.EgressBps, 480000)
	near(t, "b cpu cost", b.CPUCost, 1.42423)
	near(t, "b egress cost", b.EgressCost, 113.5296)
}

// Budgets and bandwidth: a misses an egress budget of 1 MB/s (1.08 MB/s,
// distance 1.08) and, with 1 MB/s of bandwidth, binds on it at 1e6 /
// (10·108) = 925.926 msg/s; b (0.48 MB/s) meets both.
func TestComputeBudgets(t *testing.T) {
	x := in
	x.EgressBudgetBps, x.BandwidthBps = 1e6, 1e6
	res, err := Compute(x, []Option{optA, optB})
	if err != nil {
		t.Fatal(err)
	}
	if res.Met != 1 || res.Rows[0].Codec != "b" || !res.Rows[0].Meets {
		t.Fatalf("met %d, first %+v", res.Met, res.Rows[0])
	}
	a := res.Rows[1]
	if a.Meets || a.Binds != LimitBandwidth || len(a.Misses) != 2 || !strings.Contains(a.Misses[0], "wire 1.08 MB/s > 1 MB/s") {
		t.Errorf("a: meets %v, binds %s, misses %q", a.Meets, a.Binds, a.Misses)
	}
	near(t, "a max rate", a.MaxRate, 1e6/1080.0)
	near(t, "a distance", a.Distance, 1.08)

	// A p99 budget nobody meets: the closest comes first. a's p99 is
	// 0.0164 ms, b's (4375+2040 = 6415 ns in the server, ρ 0.0123875,
	// + 1200 ns) 0.0311 ms; a budget of 0.01 ms puts a first.
	x.EgressBudgetBps, x.BandwidthBps, x.P99BudgetMs = 0, 0, 0.01
	res, err = Compute(x, []Option{optB, optA})
	if err != nil {
		t.Fatal(err)
	}
	if res.Met != 0 || res.Rows[0].Codec != "a" {
		t.Errorf("met %d, closest %s; want 0, a", res.Met, res.Rows[0].Codec)
	}
	near(t, "b p99", res.Rows[1].P99Ms, (math.Log(100)*6415/(1-0.0123875)+1200)/1e6)
}

// A server that cannot keep up: ρ ≥ 1 gives an infinite p99 (-1 in JSON)
// and a miss on cores; an option with an Error ranks last; only Error rows
// is ErrNoOption; bad inputs are errors naming the input.
func TestComputeEdges(t *testing.T) {
	x := in
	x.Rate = 200000 // a: 200000 · 22000 ns = 4.4 cores > 2
	bad := Option{Codec: "c", Compressor: None, Error: "marshal: unsupported type"}
	res, err := Compute(x, []Option{bad, optA})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Rows[0]
	if !math.IsInf(a.P99Ms, 1) || a.Meets || len(a.Misses) != 1 || a.Misses[0] != "server cores 4.4 > 2" {
		t.Errorf("a: p99 %v, misses %q", a.P99Ms, a.Misses)
	}
	if res.Rows[1].Codec != "c" || res.Rows[1].Error == "" {
		t.Errorf("second row %+v, want c with its error", res.Rows[1])
	}
	data, err := json.Marshal(a)
	if err != nil || !strings.Contains(string(data), `"p99_ms":-1`) {
		t.Errorf("json %s, %v", data, err)
	}
	if _, err := Compute(in, []Option{bad}); !errors.Is(err, ErrNoOption) {
		t.Errorf("only errors: %v", err)
	}
	for _, tc := range []struct {
		mod  func(*Inputs)
		want string
	}{
		{func(i *Inputs) { i.Rate = 0 }, "invalid rate 0"},
		{func(i *Inputs) { i.Rate = math.NaN() }, "invalid rate NaN"},
		{func(i *Inputs) { i.Fanout = 0 }, "invalid fanout 0"},
		{func(i *Inputs) { i.Cores = -1 }, "invalid cores -1"},
		{func(i *Inputs) { i.CPUPrice = -0.1 }, "invalid cpu price -0.1"},
	} {
		x := in
		tc.mod(&x)
		if _, err := Compute(x, []Option{optA}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

// FromResults: intervals, sizes and efficiencies from a run's rows.
// Marshal scales ×1.6 on 2 goroutines (efficiency 0.8), compress is not
// measured in parallel (1): combined (100+300)/(100/0.8 + 300/1) = 400/425.
func TestFromResults(t *testing.T) {
	par := func(s float64) []results.ParallelPoint {
		return []results.ParallelPoint{{Goroutines: 1, Scaling: 1}, {Goroutines: 2, Scaling: s}}
	}
	rs := []results.Row{
		{Codec: "x", Scenario: "s", Op: results.OpMarshal, NsPerOp: 100, NsPerOpLo: 90, NsPerOpHi: 120, SizeBytes: 50, OK: true, Parallel: par(1.6)},
		{Codec: "x", Scenario: "s", Op: results.OpUnmarshal, NsPerOp: 200, SizeBytes: 50, OK: true},
		{Codec: "x", Scenario: "s", Op: "compress:zstd", NsPerOp: 300, CompressedBytes: 20, OK: true},
		{Codec: "x", Scenario: "s", Op: "decompress:zstd", NsPerOp: 50, CompressedBytes: 20, OK: true},
		{Codec: "y", Scenario: "s", Op: results.OpMarshal, NA: true, Error: "no schema"},
		{Codec: "y", Scenario: "s", Op: results.OpUnmarshal, NA: true, Error: "no schema"},
		{Codec: "x", Scenario: "other", Op: results.OpMarshal, NsPerOp: 1, OK: true},
	}
	got := FromResults(rs, "s", []string{"zstd", "lz4"}, 2)
	if len(got) != 6 {
		t.Fatalf("%d options, want 6: %+v", len(got), got)
	}
	x, xz, xl, y := got[0], got[1], got[2], got[3]
	if x.MarshalNs != (Interval{100, 90, 120}) || x.PayloadBytes != 50 || x.SendEfficiency != 0.8 || x.RecvEfficiency != 0 {
		t.Errorf("x none: %+v", x)
	}
	if xz.PayloadBytes != 20 || xz.CompressNs != Point(300) || xz.Error != "" {
		t.Errorf("x zstd: %+v", xz)
	}
	near(t, "x zstd send efficiency", xz.SendEfficiency, 400.0/425)
	if !strings.Contains(xl.Error, "lz4 not measured") {
		t.Errorf("x lz4: %+v", xl)
	}
	if y.Error != "n/a: no schema" || got[4].Error != y.Error {
		t.Errorf("y: %+v %+v", y, got[4])
	}
}

// An option whose payload carries some of the framing (sse-gzip) adds
// only the rest of the transport's 8 framing bytes to the wire; one that
// carries more adds none.
func TestComputeFramingCarried(t *testing.T) {
	framed, over := optA, optA
	framed.Codec, framed.FramingBytes = "framed", 5
	over.Codec, over.FramingBytes = "over", 20
	res, err := Compute(in, []Option{framed, over})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		want := map[string]float64{"framed": 100 + 3, "over": 100}[r.Codec]
		near(t, r.Codec+" wire", r.WireBytes, want)
	}
}

// SSE's base64 and the transport's latency floor: a binary 100-byte
// payload takes 4·ceil(100/3) = 136 bytes + 8 framing = 144 on the wire,
// and costs 10·(2000 + 136) = 21360 ns of sends; the p99 starts from the
// transport's 5 ms. A text payload keeps its 100 bytes.
func TestComputeBase64(t *testing.T) {
	x := in
	x.Transport.Base64, x.Transport.P99Ms = true, 5
	bin := optA
	bin.Codec, bin.Binary = "bin", true
	res, err := Compute(x, []Option{bin, optA})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		wire, send := 108.0, 22000.0
		if r.Codec == "bin" {
			wire, send = 144, 1000+21360
		}
		near(t, r.Codec+" wire", r.WireBytes, wire)
		near(t, r.Codec+" send cores", r.SendCores.Mid, send*1000/1e9)
		s1 := 1000 + 2000 + (wire - 8)
		near(t, r.Codec+" p99", r.P99Ms, 5+(math.Log(100)*s1/(1-send*1000/1e9/2)+2000)/1e6)
	}
}

// The receivers' transport cost: each of the F receivers pays
// RecvNsPerMsg + RecvNsPerByte × payload besides decoding. optA at 1000
// msg/s and fan-out 10 with 3000 ns + 2 ns/B: 10 × (2000 + 3000 + 200) ns
// × 1000/s = 0.052 cores; the server's cores do not move.
func TestComputeReceiverTransport(t *testing.T) {
	x := in
	x.Transport.RecvNsPerMsg, x.Transport.RecvNsPerByte = 3000, 2
	with, err := Compute(x, []Option{optA})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Compute(in, []Option{optA})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "recv cores", with.Rows[0].RecvCores.Mid, 0.052)
	near(t, "send cores", with.Rows[0].SendCores.Mid, without.Rows[0].SendCores.Mid)
}

// The receivers' garbage collection: each of the F receivers pays
// RecvNsPerAllocByte for every byte its decoding allocates. optA at 1000
// msg/s and fan-out 10, allocating 500 B a decode, at 2 ns per byte: 10 ×
// (2000 + 1000) ns × 1000/s = 0.03 cores; an option that allocates
// nothing pays decoding alone (0.02), and the server's cores do not move.
func TestComputeReceiverGC(t *testing.T) {
	x := in
	x.Transport.RecvNsPerAllocByte = 2
	alloc := optA
	alloc.RecvAllocBytes = 500
	plain, err := Compute(in, []Option{optA})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		x    Inputs
		o    Option
		want float64
	}{
		{"500 B a decode", x, alloc, 0.03},
		{"nothing allocated", x, optA, 0.02},
		{"no GC cost measured", in, alloc, 0.02},
	} {
		res, err := Compute(tc.x, []Option{tc.o})
		if err != nil {
			t.Fatal(err)
		}
		near(t, tc.name+": recv cores", res.Rows[0].RecvCores.Mid, tc.want)
		near(t, tc.name+": send cores", res.Rows[0].SendCores.Mid, plain.Rows[0].SendCores.Mid)
	}
}

// With CPU time per operation recorded, the efficiency is one goroutine's
// CPU per op over g goroutines' (at most 1), whatever the throughput did:
// a second goroutine that waited for a core taken by another process
// (scaling 1.1 on two) costs no more CPU per op. Without it, the scaling.
func TestEfficiencyFromCPU(t *testing.T) {
	for _, tc := range []struct {
		name string
		pts  []results.ParallelPoint
		want float64
	}{
		{"a core taken: scaling 1.1, CPU per op the same", []results.ParallelPoint{{Goroutines: 1, Scaling: 1, CPUNsPerOp: 100}, {Goroutines: 2, Scaling: 1.1, CPUNsPerOp: 100}}, 1},
		{"GC: CPU per op up a quarter", []results.ParallelPoint{{Goroutines: 1, Scaling: 1, CPUNsPerOp: 100}, {Goroutines: 2, Scaling: 1.6, CPUNsPerOp: 125}}, 0.8},
		{"cheaper in parallel (noise): 1", []results.ParallelPoint{{Goroutines: 1, Scaling: 1, CPUNsPerOp: 100}, {Goroutines: 2, Scaling: 2, CPUNsPerOp: 90}}, 1},
		{"no CPU figures: scaling over goroutines", []results.ParallelPoint{{Goroutines: 1, Scaling: 1}, {Goroutines: 2, Scaling: 1.1}}, 0.55},
		{"no parallel points", nil, 0},
	} {
		if got := efficiency(results.Row{Parallel: tc.pts}, 2); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: efficiency %g, want %g", tc.name, got, tc.want)
		}
	}
}

// The transport's per-byte cost is charged on the encoded message when a
// compressor sends fewer bytes: optB (40 bytes compressed) encoded as 400
// bytes costs, at fan-out 10 and 1 ns per byte, 10 × 360 ns more per
// message than the same option without EncodedBytes; the wire bytes stay
// the compressed ones.
func TestComputeEncodedBytes(t *testing.T) {
	enc := optB
	enc.EncodedBytes = 400
	with, err := Compute(in, []Option{enc})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Compute(in, []Option{optB})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "send cores added by the encoded bytes", with.Rows[0].SendCores.Mid-without.Rows[0].SendCores.Mid, 10*360*1000/1e9)
	near(t, "wire bytes", with.Rows[0].WireBytes, without.Rows[0].WireBytes)
}

// fitRecvGC: the median client CPU with unmarshal less the median without,
// less the unmarshal's own ns/op, per byte it allocates; never negative,
// and 0 when nothing was allocated or measured.
func TestFitRecvGC(t *testing.T) {
	for _, tc := range []struct {
		name             string
		decoded, skipped []float64
		unmarshal, alloc float64
		want             float64
	}{
		{"medians", []float64{13e6, 12e6, 40e6}, []float64{0.5e6, 0.4e6, 0.45e6}, 9.55e6, 1e6, 3},
		{"cheaper than the benchmark: 0", []float64{9e6}, []float64{0.4e6}, 9.5e6, 1e6, 0},
		{"nothing allocated", []float64{12e6}, []float64{0.4e6}, 9.5e6, 0, 0},
		{"no rounds", nil, nil, 9.5e6, 1e6, 0},
	} {
		if got := fitRecvGC(tc.decoded, tc.skipped, tc.unmarshal, tc.alloc); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %g ns per allocated byte, want %g", tc.name, got, tc.want)
		}
	}
}

// The table's transport line names the receivers' costs that were measured:
// R_gc only when it is.
func TestWriteTableReceiverCosts(t *testing.T) {
	for _, gc := range []float64{0, 2.35} {
		x := in
		x.Transport.RecvNsPerMsg, x.Transport.RecvNsPerByte, x.Transport.RecvNsPerAllocByte = 3000, 0.5, gc
		res, err := Compute(x, []Option{optA})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteTable(&b, Document{TransportSource: "measured", Plans: []Plan{{Scenario: "s", Options: []Option{optA}, Result: res}}}); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(b.String(), ", + 2.35 ns per byte decoding allocates")
		if !strings.Contains(b.String(), "receivers: 3000 ns per delivered message + 0.5 ns per byte besides decoding") || has != (gc > 0) {
			t.Errorf("R_gc %g: the transport line reads\n%s", gc, b.String())
		}
	}
}
