package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
)

// Schema is the "schema" value of a Document (docs/schema/plan.schema.json).
const Schema = document.Plan

// Document is what `serbench plan` writes: the answer per scenario, the
// transport cost used, and the machine.
type Document struct {
	Schema string  `json:"schema"`
	Env    env.Env `json:"env"`
	// Source says where the codec figures come from: "measured" (a quick
	// run of this command) or the saved run file given with -from.
	Source string `json:"source"`
	// TransportSource says where Inputs.Transport comes from: "measured"
	// (a server on this machine) or "given".
	TransportSource string `json:"transport_source"`
	Plans           []Plan `json:"plans"`
	// Warnings are findings that did not stop the answer.
	Warnings []string `json:"warnings,omitempty"`
}

// Plan is the answer for one scenario.
type Plan struct {
	Scenario string `json:"scenario"`
	// Options are the measured figures the rows come from, so that a
	// reader (the HTML calculator) can recompute at other inputs.
	Options []Option `json:"options"`
	Result
	// Verify holds -verify's checks, one per option run against a real
	// server; absent without -verify.
	Verify []Check `json:"verify,omitempty"`
}

// Check compares the model with a server run for one option: `serbench
// serve` in a child process under `serbench load` at the planned rate,
// fan-out 1 (one stream per connection: what load drives).
type Check struct {
	Codec      string `json:"codec"`
	Compressor string `json:"compressor"`
	// Rate is the messages per second asked for, Achieved what the
	// server sent per second.
	Rate     float64 `json:"rate"`
	Achieved float64 `json:"achieved"`
	// Fanout is the connections that shared each stream, the plan's
	// fan-out.
	Fanout int `json:"fanout"`
	// Predicted* are the model's figures at Rate and Fanout; Measured* the
	// run's: server CPU in cores (rusage of the server process over the
	// run), receiver CPU in cores (rusage of the load client, which also
	// reads the transport: HTTP, SSE or WebSocket framing, base64), wire
	// bytes per message delivered, p99 in ms.
	PredictedCores     float64 `json:"predicted_cores"`
	MeasuredCores      float64 `json:"measured_cores"`
	PredictedRecvCores float64 `json:"predicted_recv_cores"`
	MeasuredRecvCores  float64 `json:"measured_recv_cores"`
	// CodecShare is the codec's share of the measured server CPU: its
	// marshal (+ compress) ns per message on one goroutine × Rate over
	// MeasuredCores; a ratio, 1 = all of it.
	CodecShare    float64 `json:"codec_share"`
	PredictedWire float64 `json:"predicted_wire_bytes"`
	MeasuredWire  float64 `json:"measured_wire_bytes"`
	PredictedP99  float64 `json:"predicted_p99_ms"`
	MeasuredP99   float64 `json:"measured_p99_ms"`
	// Limit, when set, says why the rate was not reached (the server's
	// CPU, the client, lost messages).
	Limit string `json:"limit,omitempty"`
	// Error is a run that failed.
	Error string `json:"error,omitempty"`
}

// ratio is measured over predicted, 0 when predicted is not a positive
// finite number.
func ratio(measured, predicted float64) float64 {
	if predicted <= 0 || math.IsInf(predicted, 0) || math.IsNaN(predicted) {
		return 0
	}
	return measured / predicted
}

// MarshalJSON writes c with an infinite predicted p99 as -1.
func (c Check) MarshalJSON() ([]byte, error) {
	type plain Check
	p := plain(c)
	if math.IsInf(p.PredictedP99, 0) {
		p.PredictedP99 = -1
	}
	return json.Marshal(p)
}

// formats are the formats of a plan document.
var formats = document.Formats[Document]{Package: "plan", List: []document.Format[Document]{
	{Name: "table", Write: WriteTable},
	{Name: "json", Write: WriteJSON},
	{Name: "html", Write: WriteHTML},
}}

// Formats lists the names Write accepts.
var Formats = formats.Names()

// Write writes d in format, one of Formats; an unknown format is a
// *document.UnknownFormatError.
func Write(w io.Writer, format string, d Document) error { return formats.Write(w, format, d) }

// WriteJSON writes d as indented JSON.
func WriteJSON(w io.Writer, d Document) error {
	return document.WriteJSON(w, "plan", "  ", d)
}

// WriteTable writes d as aligned text: per scenario the inputs, the
// ranked options and, with -verify, predicted against measured.
func WriteTable(w io.Writer, d Document) error {
	// Rendered in memory, so the one write to w is the one error to check.
	ew := new(bytes.Buffer)
	for _, warn := range d.Warnings {
		fmt.Fprintf(ew, "warning: %s\n", warn)
	}
	for i, p := range d.Plans {
		if i > 0 || len(d.Warnings) > 0 {
			fmt.Fprintln(ew)
		}
		writePlan(ew, p, d)
	}
	if _, err := w.Write(ew.Bytes()); err != nil {
		return fmt.Errorf("plan: write table: %w", err)
	}
	return nil
}

func writePlan(w io.Writer, p Plan, d Document) {
	in := p.Inputs
	fmt.Fprintf(w, "%s: %s msg/s, fan-out %d, %s server cores", p.Scenario, num(in.Rate), in.Fanout, num(in.Cores))
	if in.BandwidthBps > 0 {
		fmt.Fprintf(w, ", %s MB/s bandwidth", num(in.BandwidthBps/1e6))
	}
	fmt.Fprintf(w, "; $%s per vCPU-hour, $%s per GB\n", num(in.CPUPrice), num(in.EgressPrice))
	var budgets []string
	if in.P99BudgetMs > 0 {
		budgets = append(budgets, "p99 ≤ "+num(in.P99BudgetMs)+" ms")
	}
	if in.EgressBudgetBps > 0 {
		budgets = append(budgets, "egress ≤ "+num(in.EgressBudgetBps/1e6)+" MB/s")
	}
	if len(budgets) > 0 {
		fmt.Fprintf(w, "budgets: %s\n", strings.Join(budgets, ", "))
	}
	t := in.Transport
	src := d.TransportSource
	if t.MeasuredFanout > 0 {
		src += fmt.Sprintf(" at fan-out %d", t.MeasuredFanout)
	}
	if t.Rounds > 0 {
		src += fmt.Sprintf(", the median of %d rounds", t.Rounds)
	}
	if t.Spread != nil {
		src += fmt.Sprintf(", rounds %s-%s ns per delivered %s B message", num(t.Spread.Lo), num(t.Spread.Hi), num(t.SpreadBytes))
	}
	if r := t.ReferenceRange; r != nil {
		src += fmt.Sprintf("; machine reading: a %s ns reference, %s-%s over the rounds", num(r.Mid), num(r.Lo), num(r.Hi))
	}
	fmt.Fprintf(w, "transport (%s): %s ns per delivered message + %s ns per byte, %s framing bytes, p99 floor %s ms", src, num(t.NsPerMsg), num(t.NsPerByte), num(t.FrameBytes), num(t.P99Ms))
	if t.RecvNsPerMsg > 0 || t.RecvNsPerByte > 0 {
		fmt.Fprintf(w, "; receivers: %s ns per delivered message + %s ns per byte besides decoding", num(t.RecvNsPerMsg), num(t.RecvNsPerByte))
	}
	if t.RecvNsPerAllocByte > 0 {
		fmt.Fprintf(w, ", + %s ns per byte decoding allocates", num(t.RecvNsPerAllocByte))
	}
	if t.Base64 {
		fmt.Fprint(w, "; binary payloads as base64 (SSE)")
	}
	fmt.Fprintln(w)
	switch {
	case p.Met == 0 && len(p.Rows) > 0 && p.Rows[0].Error == "":
		fmt.Fprintf(w, "no option meets the budgets; the closest is %s + %s (%s)\n", p.Rows[0].Codec, p.Rows[0].Compressor, strings.Join(p.Rows[0].Misses, ", "))
	case p.Met > 0:
		fmt.Fprintf(w, "%d of %d options meet the budgets; cheapest: %s + %s at $%s/month\n", p.Met, len(p.Rows), p.Rows[0].Codec, p.Rows[0].Compressor, money(p.Rows[0].Cost))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "#\tcodec\tcompress\tserver cores\t(95%%)\treceiver cores\twire B/msg\tegress MB/s\tCPU $/mo\tegress $/mo\ttotal $/mo\tbinds\tat msg/s\tp99 ms\t  note\n")
	for i, r := range p.Rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "-\t%s\t%s\t\t\t\t\t\t\t\t\t\t\t\t  %s\n", r.Codec, r.Compressor, r.Error)
			continue
		}
		note := "ok"
		if !r.Meets {
			note = "✗ " + strings.Join(r.Misses, ", ")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s–%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t  %s\n", i+1, r.Codec, r.Compressor,
			num(r.SendCores.Mid), num(r.SendCores.Lo), num(r.SendCores.Hi), num(r.RecvCores.Mid), num(r.WireBytes), num(r.EgressBps/1e6),
			money(r.CPUCost), money(r.EgressCost), money(r.Cost), r.Binds, num(r.MaxRate), num(r.P99Ms), note)
	}
	tw.Flush()
	if len(p.Verify) > 0 {
		fmt.Fprintf(w, "verify (serve + load, fan-out %d; measured/predicted; codec %%: marshal + compress × rate over measured server cores):\n", in.Fanout)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "codec\tcompress\tmsg/s\tachieved\tserver cores pred\tmeas\tratio\tcodec %%\trecv cores pred\tmeas\tratio\twire B pred\tmeas\tratio\tp99 ms pred\tmeas\tratio\t  note\n")
		for _, c := range p.Verify {
			note := c.Limit
			if c.Error != "" {
				note = c.Error
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t  %s\n", c.Codec, c.Compressor, num(c.Rate), num(c.Achieved),
				num(c.PredictedCores), num(c.MeasuredCores), num(ratio(c.MeasuredCores, c.PredictedCores)), 100*c.CodecShare,
				num(c.PredictedRecvCores), num(c.MeasuredRecvCores), num(ratio(c.MeasuredRecvCores, c.PredictedRecvCores)),
				num(c.PredictedWire), num(c.MeasuredWire), num(ratio(c.MeasuredWire, c.PredictedWire)),
				num(c.PredictedP99), num(c.MeasuredP99), num(ratio(c.MeasuredP99, c.PredictedP99)), note)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "server cores: marshal + compression + the transport's sends at the rate (interval from the ns/op intervals); receiver cores: decompression + unmarshal on all %d receivers. $/mo: %d hours. binds: the limit reached first as the rate grows, at that rate. p99: estimate (docs/plan.md).\n", in.Fanout, HoursPerMonth)
}

// money writes x with two decimals.
func money(x float64) string { return fmt.Sprintf("%.2f", x) }
