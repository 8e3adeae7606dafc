package results

import (
	"fmt"
	"sort"
	"strings"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/stats"
)

// Recommendation is the choice a scenario's results support. Field names
// in JSON follow docs/reference.md, "JSON documents".
type Recommendation struct {
	Scenario string `json:"scenario"`
	// Front lists the codecs on the Pareto front of (marshal + unmarshal
	// ns/op, plus convert for a codec with a convert cell, encoded size)
	// among those that round-tripped exactly: no other
	// such codec is both at least as fast and at least as small, and
	// better in one. Fastest first.
	Front []Choice `json:"front"`
	// Speed is the fastest codec (marshal + unmarshal), Size the smallest
	// (the faster of equals), DropIn the fastest codec other than the
	// baseline whose measured drop-in class is dropin.Yes (the same
	// bytes on the seed scenarios and the same decoding of the fidelity
	// probes: CodecInfo.DropIn) and whose marshal output on this scenario
	// is byte for byte the baseline's (Row.SameBytes); in a file
	// without measured classes, the fastest with the same bytes. Each is
	// absent when no codec qualifies.
	Speed  *Choice `json:"speed,omitempty"`
	Size   *Choice `json:"size,omitempty"`
	DropIn *Choice `json:"drop_in,omitempty"`
	// Text says the three picks in one sentence, with their figures.
	Text string `json:"text"`
}

// Choice is one codec's figures in a Recommendation.
type Choice struct {
	Codec string `json:"codec"`
	// NsPerOp is marshal plus unmarshal time, in ns: for each op sampled
	// in pairs with the baseline, the baseline's median ns/op over the
	// paired speed-up (so that the ranking rests on the drift-proof
	// ratios), otherwise the op's median ns/op; plus ConvertNsPerOp.
	NsPerOp float64 `json:"ns_per_op"`
	// ConvertNsPerOp is the median ns/op of the codec's convert cell
	// (OpConvert: a codec on generated types, whose user converts
	// the value to the generated type and back), included in NsPerOp
	// and so in Speedup; 0 for a codec without one.
	ConvertNsPerOp float64 `json:"convert_ns_per_op,omitempty"`
	// SizeBytes is the encoded size.
	SizeBytes int `json:"size_bytes"`
	// Speedup is the baseline's NsPerOp over this one's; 0 when the
	// baseline has no figure on the scenario.
	Speedup float64 `json:"speedup"`
}

// Geomean is one codec's geometric-mean speed-up over the scenarios of a
// run for one op, as benchstat's geomean row. Cells that did not
// round-trip exactly are left out.
type Geomean struct {
	Codec string `json:"codec"`
	Op    string `json:"op"`
	// Cells is the number of scenarios averaged.
	Cells   int     `json:"cells"`
	Speedup float64 `json:"speedup"`
	// SpeedupLo and SpeedupHi bound its 95% interval, combined from the
	// cells' intervals in log space as independent normal errors
	// (stats.GeoMeanInterval); 0 when a cell lacks an interval.
	SpeedupLo float64 `json:"speedup_lo,omitempty"`
	SpeedupHi float64 `json:"speedup_hi,omitempty"`
}

// Recommend returns one Recommendation per scenario of doc, in run order.
// Left out: codecs of Kind Reference (memmove: they do not encode), of Kind
// Manual (wire: written by hand for serbench's own types, so not a library
// a user can put on theirs), ZeroCopy readers (their unmarshal builds
// no Go value) and libraries archived or deprecated upstream
// (codec.Info.Archived: jsoniter, ffjson, gogoproto); an archived codec
// that would have been on the Pareto front is named at the end of Text.
// Their rows stay in the tables.
func Recommend(doc *Run) []Recommendation {
	ref := notRecommended(doc)
	arch := archivedCodecs(doc)
	classes := dropInClasses(doc)
	order, groups := ByScenario(doc.Results)
	var out []Recommendation
	for _, id := range order {
		type pair struct {
			m, u, c *Row // marshal, unmarshal, convert
		}
		var codecs []string
		pairs := map[string]*pair{}
		for i := range groups[id] {
			r := &groups[id][i]
			if ref[r.Codec] || (r.Op != OpMarshal && r.Op != OpUnmarshal && r.Op != OpConvert) {
				continue
			}
			p := pairs[r.Codec]
			if p == nil {
				p = &pair{}
				pairs[r.Codec] = p
				codecs = append(codecs, r.Codec)
			}
			switch r.Op {
			case OpMarshal:
				p.m = r
			case OpUnmarshal:
				p.u = r
			default:
				p.c = r
			}
		}
		var ok, archived []Choice
		sameBytes := map[string]bool{}
		var bm, bu *Row
		if bp := pairs[doc.Baseline]; bp != nil {
			bm, bu = bp.m, bp.u
		}
		for _, c := range codecs {
			p := pairs[c]
			if p.m == nil || p.u == nil || !p.m.OK || !p.u.OK || p.m.NsPerOp <= 0 || p.u.NsPerOp <= 0 {
				continue
			}
			if p.c != nil && (!p.c.OK || p.c.NsPerOp <= 0) {
				continue // its user's values do not make the round trip
			}
			ch := Choice{Codec: c, NsPerOp: pairedNs(p.m, bm) + pairedNs(p.u, bu), SizeBytes: p.m.SizeBytes}
			if p.c != nil {
				ch.ConvertNsPerOp = p.c.NsPerOp
				ch.NsPerOp += p.c.NsPerOp
			}
			if arch[c] {
				archived = append(archived, ch)
				continue
			}
			ok = append(ok, ch)
			sameBytes[c] = p.m.SameBytes
		}
		base := 0.0
		for _, c := range ok {
			if c.Codec == doc.Baseline {
				base = c.NsPerOp
			}
		}
		for i := range ok {
			if base > 0 {
				ok[i].Speedup = base / ok[i].NsPerOp
			}
		}
		sort.SliceStable(ok, func(i, j int) bool { return ok[i].NsPerOp < ok[j].NsPerOp })
		rec := Recommendation{Scenario: id, Front: []Choice{}}
		cost, size := make([]float64, len(ok)), make([]float64, len(ok))
		for i, c := range ok {
			cost[i], size[i] = c.NsPerOp, float64(c.SizeBytes)
		}
		for _, i := range stats.ParetoFront(cost, size) {
			rec.Front = append(rec.Front, ok[i])
		}
		if len(ok) > 0 {
			speed := ok[0]
			rec.Speed = &speed
			size := ok[0]
			for _, c := range ok {
				if c.SizeBytes < size.SizeBytes {
					size = c
				}
			}
			rec.Size = &size
		}
		// The baseline's own marshal cell is SameBytes when the bytes were
		// compared at all (a run does; a go test or benchfmt file cannot).
		bytesCompared := sameBytes[doc.Baseline]
		var near *nearMiss
		for _, c := range ok {
			if c.Codec == doc.Baseline || (bytesCompared && !sameBytes[c.Codec]) {
				continue
			}
			if classes == nil {
				if sameBytes[c.Codec] {
					drop := c
					rec.DropIn = &drop
					break
				}
				continue
			}
			d := classes[c.Codec]
			if d == nil {
				continue
			}
			if d.Class == dropin.Yes {
				drop := c
				rec.DropIn = &drop
				break
			}
			if d.Class == dropin.SameBytes && near == nil {
				near = &nearMiss{codec: c.Codec, probes: d.Probes}
			}
		}
		missing := baselineMissing(doc.Baseline, bm, bu)
		if missing == "" && base == 0 {
			missing = doc.Baseline + " has no time here"
		}
		rec.Text = recommendText(rec, doc.Baseline, missing, bytesCompared || classes != nil, classes != nil, near) + archivedNote(archived, ok)
		out = append(out, rec)
	}
	return out
}

// nearMiss is the fastest codec that writes the baseline's bytes but
// decodes some probes differently, when it is faster than the drop-in
// pick or there is none.
type nearMiss struct {
	codec  string
	probes []dropin.ProbeOutcome
}

// dropInClasses returns the measured drop-in classes of doc's codecs
// against doc's baseline (CodecInfo.DropIn), by codec ID; nil when doc
// records none (a file from before they were measured, or a go test or
// benchfmt file).
func dropInClasses(doc *Run) map[string]*dropin.Verdict {
	var out map[string]*dropin.Verdict
	for _, c := range doc.Codecs {
		if c.DropIn != nil && c.DropIn.Of == doc.Baseline {
			if out == nil {
				out = map[string]*dropin.Verdict{}
			}
			out[c.ID] = c.DropIn
		}
	}
	return out
}

// baselineMissing says why the baseline has no time on a scenario whose
// marshal and unmarshal cells are m and u (nil when absent): "" when it
// round-tripped exactly and was timed.
func baselineMissing(baseline string, m, u *Row) string {
	switch {
	case m == nil || u == nil:
		return baseline + " did not run here"
	case m.NA || u.NA:
		return baseline + " cannot take this payload"
	case m.Timed() && u.Timed() && (!m.OK || !u.OK):
		return baseline + " ran but did not round-trip this payload exactly; its note in the table says where"
	case !m.OK || !u.OK:
		return baseline + " failed on this payload; its note in the table says how"
	}
	return ""
}

func recommendText(rec Recommendation, baseline, baseMissing string, bytesCompared, measured bool, near *nearMiss) string {
	if rec.Speed == nil {
		return "no codec round-tripped this payload exactly."
	}
	x := func(c *Choice) string {
		if c.Speedup > 0 && c.Codec != baseline {
			return fmt.Sprintf(", %.2fx %s", c.Speedup, baseline)
		}
		return ""
	}
	// ns is a choice's time, saying when it includes conversion.
	ns := func(c *Choice) string {
		if c.ConvertNsPerOp > 0 {
			return document.Ns(c.NsPerOp) + " with convert"
		}
		return document.Ns(c.NsPerOp)
	}
	ops := "marshal + unmarshal"
	if rec.Speed.ConvertNsPerOp > 0 {
		ops = "marshal + unmarshal + convert"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "for speed %s (%s %s%s); ", rec.Speed.Codec, document.Ns(rec.Speed.NsPerOp), ops, x(rec.Speed))
	fmt.Fprintf(&b, "for size %s (%d B", rec.Size.Codec, rec.Size.SizeBytes)
	if rec.Size.Codec == rec.Speed.Codec {
		b.WriteString(", also the fastest")
	} else {
		fmt.Fprintf(&b, ", %s", ns(rec.Size))
	}
	b.WriteString("); ")
	switch {
	case baseMissing != "":
		fmt.Fprintf(&b, "no drop-in figure (%s).", baseMissing)
	case rec.DropIn == nil && !bytesCompared:
		fmt.Fprintf(&b, "no drop-in figure (this file does not say which codecs write the same bytes as %s).", baseline)
	case rec.DropIn == nil && measured:
		fmt.Fprintf(&b, "no codec both writes the same bytes as %s and decodes the probes as it does, so none is a drop-in replacement", baseline)
	case rec.DropIn == nil:
		fmt.Fprintf(&b, "no codec writes the same bytes as %s, so none is a drop-in replacement.", baseline)
	case measured:
		fmt.Fprintf(&b, "as a drop-in replacement of %s (same bytes, same decoding of the fidelity probes) %s (%s%s)", baseline, rec.DropIn.Codec, ns(rec.DropIn), x(rec.DropIn))
	default:
		fmt.Fprintf(&b, "as a drop-in replacement of %s (same bytes; decoding not compared) %s (%s%s).", baseline, rec.DropIn.Codec, ns(rec.DropIn), x(rec.DropIn))
	}
	if measured && baseMissing == "" {
		if near != nil {
			ids := make([]string, len(near.probes))
			for i, p := range near.probes {
				ids[i] = p.Probe
			}
			if rec.DropIn == nil {
				fmt.Fprintf(&b, "; the fastest codec with the same bytes, %s, decodes differently on %s", near.codec, strings.Join(ids, ", "))
			} else {
				fmt.Fprintf(&b, "; faster, %s writes the same bytes but decodes differently on %s", near.codec, strings.Join(ids, ", "))
			}
		}
		b.WriteString(".")
	}
	return b.String()
}

// archivedCodecs is the set of doc's codecs whose library upstream
// archived or deprecated (codec.Info.Archived).
func archivedCodecs(doc *Run) map[string]bool {
	out := map[string]bool{}
	for _, c := range doc.Codecs {
		if c.Archived {
			out[c.ID] = true
		}
	}
	return out
}

// archivedNote names the archived codecs that round-tripped and that no
// recommendable codec (ok) dominates, those Recommend would have put on the
// Pareto front, with their marshal + unmarshal time and size; "" when there
// are none.
func archivedNote(archived, ok []Choice) string {
	var names []string
	for _, a := range archived {
		dominated := false
		for _, d := range ok {
			if d.NsPerOp <= a.NsPerOp && d.SizeBytes <= a.SizeBytes {
				dominated = true
				break
			}
		}
		if !dominated {
			names = append(names, fmt.Sprintf("%s (%s, %d B)", a.Codec, document.Ns(a.NsPerOp), a.SizeBytes))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " Left out as archived upstream, though on the front otherwise: " + strings.Join(names, ", ") + "."
}

// notRecommended is the set of doc's codecs Recommend leaves out.
func notRecommended(doc *Run) map[string]bool {
	out := map[string]bool{}
	for _, c := range doc.Codecs {
		if c.Kind == codec.Reference || c.Kind == codec.Manual || c.ZeroCopy || c.ParseOnly {
			out[c.ID] = true
		}
	}
	return out
}

// referenceCodecs is the set of doc's codecs of Kind Reference.
func referenceCodecs(doc *Run) map[string]bool {
	ref := map[string]bool{}
	for _, c := range doc.Codecs {
		if c.Kind == codec.Reference {
			ref[c.ID] = true
		}
	}
	return ref
}

// Geomeans returns each codec's geometric-mean speed-up per op over the
// scenarios of doc, in the order of doc.Results (by codec, then marshal,
// unmarshal, convert, for a codec that ran on the first scenario). The baseline
// (1 by definition), reference codecs and compression ops
// ("compress:zstd") are left out.
func Geomeans(doc *Run) []Geomean {
	type key struct{ codec, op string }
	type acc struct{ speedups, lo, hi []float64 }
	ref := referenceCodecs(doc)
	var keys []key
	accs := map[key]*acc{}
	for _, r := range doc.Results {
		if _, _, compress := CompressOp(r.Op); compress || r.Codec == doc.Baseline || ref[r.Codec] || !r.OK || r.Speedup <= 0 {
			continue
		}
		k := key{r.Codec, r.Op}
		a := accs[k]
		if a == nil {
			a = &acc{}
			accs[k] = a
			keys = append(keys, k)
		}
		a.speedups = append(a.speedups, r.Speedup)
		a.lo, a.hi = append(a.lo, r.SpeedupLo), append(a.hi, r.SpeedupHi)
	}
	var out []Geomean
	for _, k := range keys {
		a := accs[k]
		g := Geomean{Codec: k.codec, Op: k.op, Cells: len(a.speedups)}
		g.Speedup, g.SpeedupLo, g.SpeedupHi = stats.GeoMeanInterval(a.speedups, a.lo, a.hi)
		out = append(out, g)
	}
	return out
}

// pairedNs is r's time for the recommendation: the baseline's median
// ns/op on the same op (base, nil when the baseline did not run) over r's
// paired speed-up when r was sampled in pairs, else r's median.
func pairedNs(r, base *Row) float64 {
	if base == nil || base.NsPerOp <= 0 || len(r.PairRatios) == 0 || r.Speedup <= 0 {
		return r.NsPerOp
	}
	return base.NsPerOp / r.Speedup
}
