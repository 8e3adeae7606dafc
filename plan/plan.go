// Package plan turns serbench's measurements into a capacity answer: for a
// message rate, a fan-out (receivers that decode each message), the cores
// of the sending server and optional budgets and prices, it computes for
// each codec × compressor the cores used, the bytes per second on the
// wire, the monthly cost split into CPU and egress, the limit that binds
// first as the rate grows and the rate at which it binds, and ranks the
// options that meet the budgets, cheapest first.
//
// The model (docs/plan.md gives the same formulas with their sources):
//
//	send ns/msg   S = (marshal + compress) / e_send + F·(T_msg + T_byte·P)
//	recv ns/msg   V = F·(decompress + unmarshal) / e_recv
//	              + F·(R_msg + R_byte·P + R_gc·A)
//	cores         = R·S/1e9 (server) + R·V/1e9 (receivers)
//	wire B/msg    W = P + framing, P = payload (compressed when a compressor
//	              is used; 4·ceil(P/3) for a binary payload on SSE's base64)
//	egress B/s    = R·F·W
//	CPU $/month   = cores · 730 h · price per vCPU-hour
//	egress $/month = egress B/s · 730·3600 s / 1e9 · price per GB
//	CPU limit     R_cpu = cores_available·1e9 / S
//	wire limit    R_bw  = bandwidth / (F·W)
//	p99 estimate  = T_p99 + ln(100)·S_1/(1−ρ) + (decompress + unmarshal), ρ = R·S/(1e9·cores)
//
// where R is the rate in messages per second, F the fan-out, T_msg and
// T_byte the transport's own CPU cost per delivered message and per byte
// and T_p99 its own p99 latency (Transport, measured with the same
// server on a small and a large payload, MeasureTransport), R_msg and
// R_byte the receiver's, R_gc a receiving process's garbage collection
// per byte its decoding allocates and A those bytes (unmarshal and
// decompress B/op), and e_send, e_recv the
// parallel efficiency measured with as many goroutines as cores (bench's
// -parallel: Scaling/goroutines), not an assumed 1. S_1 is S without
// fan-out's sends, the time one message spends in the server; the p99 is
// the M/M/1 sojourn time's 99th percentile per core, an estimate that
// `serbench plan -verify` checks against a real server. 730 hours is the
// month cloud price lists use.
//
// The package never prints; cmd/serbench plan renders a Result.
package plan

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// HoursPerMonth is the month of cloud price lists: 730 hours (365 × 24 / 12).
const HoursPerMonth = 730

// Compressor "none" is an option without compression.
const None = "none"

// Interval is a figure with its 95% confidence interval: Lo ≤ Mid ≤ Hi.
// A figure without an interval has Lo = Mid = Hi.
type Interval struct {
	Mid float64 `json:"mid"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
}

// Point is an Interval of one value.
func Point(x float64) Interval { return Interval{x, x, x} }

func (a Interval) add(b Interval) Interval { return Interval{a.Mid + b.Mid, a.Lo + b.Lo, a.Hi + b.Hi} }
func (a Interval) scale(k float64) Interval {
	return Interval{a.Mid * k, a.Lo * k, a.Hi * k}
}

// Option is one codec × compressor with what was measured for one payload,
// all per message and on one goroutine unless said otherwise.
type Option struct {
	Codec      string `json:"codec"`
	Compressor string `json:"compressor"`
	// MarshalNs, UnmarshalNs, CompressNs and DecompressNs are ns per
	// message (the last two zero for None).
	MarshalNs    Interval `json:"marshal_ns"`
	UnmarshalNs  Interval `json:"unmarshal_ns"`
	CompressNs   Interval `json:"compress_ns"`
	DecompressNs Interval `json:"decompress_ns"`
	// PayloadBytes is the message as sent, after compression: mean bytes
	// per message.
	PayloadBytes float64 `json:"payload_bytes"`
	// EncodedBytes is the codec's message before compression, in bytes
	// (PayloadBytes itself without a compressor); 0 when not known. The
	// transport's per-byte cost is charged on the larger of the two: a
	// server handles the whole encoded message (serve copies it into a
	// prepared frame, uncompressed, before compressing it), and on a
	// 470 KB corpus document at fan-out 1 a compressed choice that sent a
	// seventh of the bytes cost what compressing it cost on top of the
	// uncompressed send, not less (docs/plan.md).
	EncodedBytes float64 `json:"encoded_bytes,omitempty"`
	// RecvAllocBytes is what decoding one message allocates on the heap,
	// in bytes: unmarshal's B/op, plus decompress's when measured; the
	// receivers pay Transport.RecvNsPerAllocByte for each. 0 when not
	// known.
	RecvAllocBytes float64 `json:"recv_alloc_bytes,omitempty"`
	// FramingBytes is how much of the transport's framing PayloadBytes
	// already carries, in bytes (SSEGzip compresses each event's framing
	// lines with its payload): the wire then takes Transport.FrameBytes
	// less these, never below 0. 0 for other options.
	FramingBytes float64 `json:"framing_bytes,omitempty"`
	// SendEfficiency and RecvEfficiency are the parallel efficiency of
	// marshal (+ compress) and of unmarshal (+ decompress) with as many
	// goroutines as Inputs.Cores: one goroutine's CPU per operation over
	// the CPU per operation with that many, or where CPU time was not
	// recorded the throughput over goroutines × one goroutine's; in
	// (0, 1] (above 1 is allowed: a cache effect). 0 means not measured,
	// taken as 1.
	SendEfficiency float64 `json:"send_efficiency"`
	RecvEfficiency float64 `json:"recv_efficiency"`
	// Binary is true when the payload is binary (a binary codec, or any
	// compressor), for Transport.Base64.
	Binary bool `json:"binary"`
	// Error, when set, says why the option cannot carry the payload (the
	// codec cannot encode it, or the round trip loses something): the row
	// is kept, unranked, with the reason.
	Error string `json:"error,omitempty"`
}

// Transport is the transport's own cost, beyond the codec: measured on
// the machine with the same server on a small and a large payload
// (MeasureTransport), or given.
type Transport struct {
	// NsPerMsg is server CPU ns per delivered message (framing, syscalls,
	// scheduling), NsPerByte per byte of payload delivered.
	NsPerMsg  float64 `json:"ns_per_msg"`
	NsPerByte float64 `json:"ns_per_byte"`
	// FrameBytes is the framing each delivered message adds on the wire
	// (SSE "data:" lines, WebSocket frame header), in bytes.
	FrameBytes float64 `json:"frame_bytes"`
	// Base64 is true when the transport carries binary payloads as
	// base64 text (SSE): a binary option's payload then takes
	// 4·ceil(bytes/3) bytes on the wire.
	Base64 bool `json:"base64"`
	// P99Ms is the transport's own p99 latency in ms with the small
	// payload at the planned rate (pacing, flushing, the receiving client): the floor
	// the p99 estimate starts from.
	P99Ms float64 `json:"p99_ms"`
	// RecvNsPerMsg and RecvNsPerByte are the receiver's transport cost,
	// CPU ns per delivered message and per payload byte: reading the
	// frames (system calls, wake-ups) and what a receiver does with each
	// message besides decoding it, as measured on serbench load's client
	// (which also checks each message's sequence number and records its
	// latency) reading every message without unmarshaling it. Zero when
	// given: the receiver cores are then decompression and unmarshal
	// alone.
	RecvNsPerMsg  float64 `json:"recv_ns_per_msg,omitempty"`
	RecvNsPerByte float64 `json:"recv_ns_per_byte,omitempty"`
	// RecvNsPerAllocByte is a receiving process's CPU ns per byte its
	// decoding allocates (Option.RecvAllocBytes), beyond the unmarshal
	// time a benchmark loop measures: the garbage collection of decoded
	// values in a process that holds connections, buffers and histograms
	// besides. Measured (MeasureTransport) as serbench load's client CPU
	// per message with encoding/json's unmarshal less without it, less
	// the unmarshal's own time, over its B/op. 0 when given.
	RecvNsPerAllocByte float64 `json:"recv_ns_per_alloc_byte,omitempty"`
	// MeasuredFanout, when measured (MeasureTransport), is the fan-out
	// the figures were measured at: NsPerMsg and NsPerByte are then the
	// server's cost per delivered message at that fan-out, the costs paid
	// once per published message shared by its receivers. Absent when
	// given.
	MeasuredFanout int `json:"measured_fanout,omitempty"`
	// Rounds, when measured, is how many times each payload's run was
	// repeated, the two interleaved; NsPerMsg and NsPerByte are fitted
	// through the median round of each. ReferenceNs and ReferenceRange
	// read the machine's speed during the measurement: a reference
	// (encoding/json's marshal of the smaller payload, CPU ns on one
	// thread) timed between the runs, its median and its fastest and
	// slowest timing. The fit does not use it. Absent when given.
	Rounds         int       `json:"rounds,omitempty"`
	ReferenceNs    float64   `json:"reference_ns,omitempty"`
	ReferenceRange *Interval `json:"reference_range,omitempty"`
	// Spread, when measured, is how far the rounds agreed: the cost per
	// delivered message of the smaller payload (SpreadBytes bytes) in
	// each round, in ns: Mid the median the fit used, Lo and Hi the
	// cheapest and the dearest round. Nil when given.
	Spread      *Interval `json:"spread,omitempty"`
	SpreadBytes float64   `json:"spread_bytes,omitempty"`
}

// Inputs describe the traffic, the machine, the budgets and the prices.
type Inputs struct {
	// Rate is messages per second published; > 0.
	Rate float64 `json:"rate"`
	// Fanout is how many receivers decode each message; ≥ 1.
	Fanout int `json:"fanout"`
	// Cores is the sending server's cores (vCPUs); > 0.
	Cores float64 `json:"cores"`
	// BandwidthBps is the sending server's egress bandwidth in bytes per
	// second; 0 means unlimited.
	BandwidthBps float64 `json:"bandwidth_bps"`
	// P99BudgetMs is the latency budget in ms; 0 means none.
	P99BudgetMs float64 `json:"p99_budget_ms"`
	// EgressBudgetBps is the egress budget in bytes per second; 0 means none.
	EgressBudgetBps float64 `json:"egress_budget_bps"`
	// CPUPrice is the price of one vCPU-hour; EgressPrice of one GB (10^9
	// bytes) of egress. Any currency; 0 means free.
	CPUPrice    float64 `json:"cpu_price"`
	EgressPrice float64 `json:"egress_price"`
	// Transport is added to every option.
	Transport Transport `json:"transport"`
}

// Validate returns an error naming the first input out of range.
func (in Inputs) Validate() error {
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
	switch {
	case bad(in.Rate) || in.Rate <= 0:
		return fmt.Errorf("plan: invalid rate %g (want messages per second > 0)", in.Rate)
	case in.Fanout < 1:
		return fmt.Errorf("plan: invalid fanout %d (want >= 1 receivers per message)", in.Fanout)
	case bad(in.Cores) || in.Cores <= 0:
		return fmt.Errorf("plan: invalid cores %g (want > 0)", in.Cores)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"bandwidth", in.BandwidthBps}, {"p99 budget", in.P99BudgetMs}, {"egress budget", in.EgressBudgetBps},
		{"cpu price", in.CPUPrice}, {"egress price", in.EgressPrice},
		{"transport ns per message", in.Transport.NsPerMsg}, {"transport ns per byte", in.Transport.NsPerByte}, {"frame bytes", in.Transport.FrameBytes}} {
		if bad(f.v) || f.v < 0 {
			return fmt.Errorf("plan: invalid %s %g (want >= 0)", f.name, f.v)
		}
	}
	return nil
}

// Limits that bind as the rate grows.
const (
	LimitCPU       = "cpu"
	LimitBandwidth = "bandwidth"
)

// Row is the answer for one Option.
type Row struct {
	Codec      string `json:"codec"`
	Compressor string `json:"compressor"`
	// Error is the Option's Error; the other fields are then zero.
	Error string `json:"error,omitempty"`
	// SendCores is the server's cores for marshal, compression and the
	// transport at Rate; RecvCores the receivers' cores for decompression
	// and unmarshal (all Fanout of them); Cores their sum.
	SendCores Interval `json:"send_cores"`
	RecvCores Interval `json:"recv_cores"`
	Cores     Interval `json:"cores"`
	// WireBytes is bytes per delivered message on the wire (payload +
	// framing); EgressBps is Rate × Fanout × WireBytes.
	WireBytes float64 `json:"wire_bytes"`
	EgressBps float64 `json:"egress_bps"`
	// CPUCost, EgressCost and Cost are per month (HoursPerMonth), from
	// Cores.Mid and EgressBps.
	CPUCost    float64 `json:"cpu_cost"`
	EgressCost float64 `json:"egress_cost"`
	Cost       float64 `json:"cost"`
	// Binds is the limit reached first as the rate grows (LimitCPU or
	// LimitBandwidth) and MaxRate the rate in messages per second at which
	// it binds (from SendCores.Mid and Inputs.Cores, or EgressBps and
	// Inputs.BandwidthBps).
	Binds   string  `json:"binds"`
	MaxRate float64 `json:"max_rate"`
	// P99Ms is the estimated p99 latency in ms (see the package doc);
	// +Inf, written as -1 in JSON, when the server cannot keep up.
	P99Ms float64 `json:"p99_ms"`
	// Meets is true when the option runs at Rate within every budget;
	// otherwise Misses says what it misses, and Distance is the largest
	// ratio of need to budget (1.3: 30% over).
	Meets    bool     `json:"meets"`
	Misses   []string `json:"misses,omitempty"`
	Distance float64  `json:"distance"`
}

// Result is the ranked answer.
type Result struct {
	Inputs Inputs `json:"inputs"`
	// Rows: the options that meet the budgets, cheapest first; then the
	// others, closest to meeting them first; then those with an Error.
	Rows []Row `json:"rows"`
	// Met counts the rows that meet the budgets. When it is 0, Rows[0]
	// is the closest option (if any row has no Error).
	Met int `json:"met"`
}

// ErrNoOption is returned by Compute when no option can be answered: none
// was given, or every one has an Error.
var ErrNoOption = errors.New("plan: no option can carry the payload")

// Compute evaluates every option at in. It returns an error for invalid
// inputs, and the Result with ErrNoOption when every option has an
// Error (or there is none).
func Compute(in Inputs, opts []Option) (Result, error) {
	if err := in.Validate(); err != nil {
		return Result{}, err
	}
	res := Result{Inputs: in}
	for _, o := range opts {
		res.Rows = append(res.Rows, row(in, o))
	}
	slices.SortStableFunc(res.Rows, func(a, b Row) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		if !a.Meets {
			if c := cmp.Compare(a.Distance, b.Distance); c != 0 {
				return c
			}
		}
		// At equal cost (no prices given, or prices that round to the
		// same), the option that uses fewer cores, then fewer bytes, is
		// the better one.
		if c := cmp.Compare(a.Cost, b.Cost); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Cores.Mid, b.Cores.Mid); c != 0 {
			return c
		}
		return cmp.Compare(a.WireBytes, b.WireBytes)
	})
	ok := 0
	for _, r := range res.Rows {
		if r.Meets {
			res.Met++
		}
		if r.Error == "" {
			ok++
		}
	}
	if ok == 0 {
		return res, ErrNoOption
	}
	return res, nil
}

func rank(r Row) int {
	switch {
	case r.Meets:
		return 0
	case r.Error == "":
		return 1
	}
	return 2
}

func eff(e float64) float64 {
	if e <= 0 || math.IsNaN(e) {
		return 1
	}
	return e
}

// row evaluates one option.
func row(in Inputs, o Option) Row {
	r := Row{Codec: o.Codec, Compressor: o.Compressor, Error: o.Error}
	if r.Error != "" {
		return r
	}
	f := float64(in.Fanout)
	t := in.Transport
	payload := o.PayloadBytes
	if t.Base64 && o.Binary {
		payload = 4 * math.Ceil(payload/3)
	}
	r.WireBytes = payload + max(t.FrameBytes-o.FramingBytes, 0)
	perSend := o.MarshalNs.add(o.CompressNs).scale(1 / eff(o.SendEfficiency))
	handled := max(payload, o.EncodedBytes) // the transport's per-byte cost's bytes
	deliver := f * (t.NsPerMsg + t.NsPerByte*handled)
	sendNs := perSend.add(Point(deliver))
	decode := o.UnmarshalNs.add(o.DecompressNs)
	recvNs := decode.scale(f / eff(o.RecvEfficiency)).add(Point(f * (t.RecvNsPerMsg + t.RecvNsPerByte*payload + t.RecvNsPerAllocByte*o.RecvAllocBytes)))
	r.SendCores = sendNs.scale(in.Rate / 1e9)
	r.RecvCores = recvNs.scale(in.Rate / 1e9)
	r.Cores = r.SendCores.add(r.RecvCores)
	r.EgressBps = in.Rate * f * r.WireBytes
	r.CPUCost = r.Cores.Mid * HoursPerMonth * in.CPUPrice
	r.EgressCost = r.EgressBps * HoursPerMonth * 3600 / 1e9 * in.EgressPrice
	r.Cost = r.CPUCost + r.EgressCost

	r.Binds, r.MaxRate = LimitCPU, math.Inf(1)
	if sendNs.Mid > 0 {
		r.MaxRate = in.Cores * 1e9 / sendNs.Mid
	}
	if in.BandwidthBps > 0 && r.WireBytes > 0 {
		if bw := in.BandwidthBps / (f * r.WireBytes); bw < r.MaxRate {
			r.Binds, r.MaxRate = LimitBandwidth, bw
		}
	}

	// One message's time in the server: its marshal and compression, and
	// one delivery; fan-out's other sends load the server (ρ) but run
	// after this message has reached its first receiver.
	s1 := perSend.Mid + t.NsPerMsg + t.NsPerByte*handled
	rho := r.SendCores.Mid / in.Cores
	r.P99Ms = math.Inf(1)
	if rho < 1 {
		r.P99Ms = t.P99Ms + (math.Log(100)*s1/(1-rho)+decode.Mid)/1e6
	}

	need := func(what string, got, budget float64, unit string, scale float64) {
		if budget <= 0 {
			return
		}
		d := got / budget
		r.Distance = max(r.Distance, d)
		if d > 1 {
			r.Misses = append(r.Misses, fmt.Sprintf("%s %s > %s", what, num(got*scale)+unit, num(budget*scale)+unit))
		}
	}
	need("server cores", r.SendCores.Mid, in.Cores, "", 1)
	need("wire", r.EgressBps, in.BandwidthBps, " MB/s", 1e-6)
	need("p99", r.P99Ms, in.P99BudgetMs, " ms", 1)
	need("egress", r.EgressBps, in.EgressBudgetBps, " MB/s", 1e-6)
	r.Meets = len(r.Misses) == 0
	return r
}

// num writes x with three significant digits, or as a whole number from
// 1000 up ("+Inf" for infinity); calc.js's num writes the same.
func num(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	if math.Abs(x) >= 1000 {
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// MarshalJSON writes r with an infinite P99Ms or MaxRate as -1 (JSON has no
// infinity).
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	p := plain(r)
	for _, x := range []*float64{&p.P99Ms, &p.MaxRate} {
		if math.IsInf(*x, 0) {
			*x = -1
		}
	}
	return json.Marshal(p)
}
