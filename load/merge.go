package load

import (
	"fmt"
	"io"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/serbench/serbench/document"
)

// MergeSchema names the JSON document `serbench merge -format json`
// writes (docs/reference.md, "JSON documents"; docs/schema/merge.schema.json).
const MergeSchema = document.Merge

// DefaultMaxSkew is MergeOptions.MaxSkew's default.
const DefaultMaxSkew = time.Second

// MergeOptions configure Merge. The zero value means defaults.
type MergeOptions struct {
	// MaxSkew is how far apart the runs' start times (and end times) may
	// be before Merge warns. Default 1s; range (0, 24h].
	MaxSkew time.Duration
}

// Source is one merged run.
type Source struct {
	Name     string     `json:"name"`
	Host     string     `json:"host,omitempty"`
	Started  time.Time  `json:"started"`
	Finished *time.Time `json:"finished,omitempty"`
}

// ClockCheck compares the runs' clocks through their start and end times.
// Runs started together on machines whose clocks agree start and end
// within a launch delay of each other; a larger spread means the clocks
// are offset or the runs were not concurrent, and the merged percentiles
// then mix different periods. The check cannot tell those two apart.
type ClockCheck struct {
	// StartSpreadMs and EndSpreadMs are the latest start (end) minus the
	// earliest, in ms; EndSpreadMs is absent when a run has no end time.
	StartSpreadMs float64  `json:"start_spread_ms"`
	EndSpreadMs   *float64 `json:"end_spread_ms,omitempty"`
	// OverlapS is how long every run was running at once (earliest end
	// minus latest start), in seconds; negative when they never were.
	OverlapS *float64 `json:"overlap_s,omitempty"`
	// MaxSkewMs is the threshold used; OK is false when a spread exceeds
	// it or the runs do not overlap.
	MaxSkewMs float64 `json:"max_skew_ms"`
	OK        bool    `json:"ok"`
}

// MergeReport is the document `serbench merge` writes: the runs' results
// combined per (transport, codec, scenario) and per (framework, codec,
// scenario, method).
type MergeReport struct {
	Schema   string     `json:"schema"`
	Sources  []Source   `json:"sources"`
	Clock    ClockCheck `json:"clock"`
	Warnings []string   `json:"warnings,omitempty"`
	// Transport and HTTP hold the merged results; their Histogram is the
	// merged histogram.
	Transport []Result     `json:"transport"`
	HTTP      []HTTPResult `json:"http,omitempty"`
	// Processes describes a push load split over server and client
	// processes (serbench load -servers, -clients; MergeSplit); absent
	// for runs merged by serbench merge.
	Processes *Processes `json:"processes,omitempty"`
}

// Merge combines load reports taken at the same time on several machines.
// For each result key it merges the latency histograms (so percentiles
// are those of all requests or messages together, not an average of
// percentiles), sums counts and rates, averages bytes per message and
// per-request server figures weighted by their counts, and keeps the
// largest server CPU seconds, peak RSS, publisher lag and server request
// count (the runs are taken to load one server, whose figures each run saw
// whole). names label
// the reports in errors and in Sources. It fails on fewer than two
// reports, a result without a histogram (a report from before histograms
// were written), or a histogram that does not decode; clock problems are
// Warnings.
func Merge(reps []Report, names []string, o MergeOptions) (MergeReport, error) {
	return merge(reps, names, o, 2)
}

// merge is Merge of at least least reports.
func merge(reps []Report, names []string, o MergeOptions, least int) (MergeReport, error) {
	out := MergeReport{Schema: MergeSchema, Transport: []Result{}}
	if o.MaxSkew == 0 {
		o.MaxSkew = DefaultMaxSkew
	}
	if o.MaxSkew < 0 || o.MaxSkew > 24*time.Hour {
		return out, fmt.Errorf("load: invalid max skew %v (range is (0, 24h])", o.MaxSkew)
	}
	if len(reps) < least || len(names) != len(reps) {
		return out, fmt.Errorf("load: merge needs %s reports or more, got %d", [...]string{"no", "one", "two"}[least], len(reps))
	}
	for i, r := range reps {
		out.Sources = append(out.Sources, Source{Name: names[i], Host: r.Host, Started: r.Env.Started, Finished: r.Finished})
	}
	out.Clock, out.Warnings = checkClocks(out.Sources, o.MaxSkew)

	var tr byKey[Result]
	var hr byKey[HTTPResult]
	hServed := map[string]uint64{} // the most server requests one run saw
	for i, rep := range reps {
		for _, r := range rep.Transport {
			k := r.Transport + "|" + r.Codec + "|" + r.Scenario
			m, err := tr.add(names[i], k, r.Histogram, Result{Transport: r.Transport, Codec: r.Codec, Scenario: r.Scenario, CPUScope: r.CPUScope, PeakRSSScope: r.PeakRSSScope})
			if err != nil {
				return out, err
			}
			mergeResult(m, r)
		}
		for _, r := range rep.HTTP {
			k := r.Framework + "|" + r.Codec + "|" + r.Scenario + "|" + r.Method
			m, err := hr.add(names[i], k, r.Histogram, HTTPResult{Framework: r.Framework, Codec: r.Codec, Scenario: r.Scenario, Method: r.Method, CPUScope: r.CPUScope})
			if err != nil {
				return out, err
			}
			mergeHTTP(m, r)
			hServed[k] = max(hServed[k], r.ServerRequests)
		}
	}
	for _, k := range tr.keys {
		m, h := tr.rows[k], tr.hist[k]
		if m.Received > 0 {
			n := float64(m.Received)
			m.WireBytesPerMsg, m.PayloadBytesPerMsg = m.WireBytesPerMsg/n, m.PayloadBytesPerMsg/n
			m.FramingBytesPerMsg, m.Base64BytesPerMsg = m.FramingBytesPerMsg/n, m.Base64BytesPerMsg/n
		}
		if m.Conns > 0 {
			m.Rate /= float64(m.Conns)
		}
		m.P50Ms, m.P90Ms, m.P99Ms, m.P999Ms, m.MaxMs = latencyMs(h)
		m.Histogram = encodeHistogram(h)
		out.Transport = append(out.Transport, *m)
	}
	for _, k := range hr.keys {
		m, h := hr.rows[k], hr.hist[k]
		if m.OK > 0 {
			n := float64(m.OK)
			m.BytesPerResponse, m.BytesPerRequest = m.BytesPerResponse/n, m.BytesPerRequest/n
		}
		if n := float64(m.ServerRequests); n > 0 {
			m.ServerCPUUsPerReq, m.ServerHeapBytesPerReq, m.ServerAllocsPerReq = m.ServerCPUUsPerReq/n, m.ServerHeapBytesPerReq/n, m.ServerAllocsPerReq/n
		}
		m.ServerRequests = hServed[k]
		m.P50Ms, m.P90Ms, m.P99Ms, m.P999Ms, m.MaxMs = latencyMs(h)
		m.Histogram = encodeHistogram(h)
		out.HTTP = append(out.HTTP, *m)
	}
	return out, nil
}

// MergeFiles reads the load reports at paths (ReadReportFile) and merges
// them (Merge), each named by its path. The first file that cannot be
// read is the error.
func MergeFiles(paths []string, o MergeOptions) (MergeReport, error) {
	reps := make([]Report, len(paths))
	for i, path := range paths {
		var err error
		if reps[i], err = ReadReportFile(path); err != nil {
			return MergeReport{Schema: MergeSchema, Transport: []Result{}}, err
		}
	}
	return Merge(reps, paths, o)
}

// byKey gathers the results of one kind (R is Result or HTTPResult) from
// several reports: one merged result per key, in the order the keys are
// first seen, with the merge of their latency histograms.
type byKey[R any] struct {
	keys []string
	rows map[string]*R
	hist map[string]*hdrhistogram.Histogram
}

// add decodes the histogram of the result with key k in report name
// (decodeFor's errors) and merges it into k's, and returns k's merged
// result: fresh when k is new.
func (b *byKey[R]) add(name, k, histogram string, fresh R) (*R, error) {
	h, err := decodeFor(name, k, histogram)
	if err != nil {
		return nil, err
	}
	if m, ok := b.rows[k]; ok {
		b.hist[k].Merge(h)
		return m, nil
	}
	if b.rows == nil {
		b.rows, b.hist = map[string]*R{}, map[string]*hdrhistogram.Histogram{}
	}
	b.keys = append(b.keys, k)
	b.rows[k], b.hist[k] = &fresh, h
	return &fresh, nil
}

func decodeFor(name, key, s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return nil, fmt.Errorf("load: %s: %s has no histogram (written before serbench load recorded them?)", name, strings.ReplaceAll(key, "|", "/"))
	}
	h, err := DecodeHistogram(s)
	if err != nil {
		return nil, fmt.Errorf("load: %s: %s: %w", name, strings.ReplaceAll(key, "|", "/"), err)
	}
	return h, nil
}

// mergeResult adds r into m; weighted sums are divided out by Merge.
func mergeResult(m *Result, r Result) {
	n := float64(r.Received)
	m.Rate += r.Rate * float64(r.Conns)
	m.Conns += r.Conns
	m.DurationS = max(m.DurationS, r.DurationS)
	m.Expected += r.Expected
	m.Sent += r.Sent
	m.Received += r.Received
	m.Lost += r.Lost
	m.Duplicates += r.Duplicates
	m.Delivered += r.Delivered
	m.LossyConns += r.LossyConns
	m.DisorderedConns += r.DisorderedConns
	m.Streams += r.Streams
	m.Fanout = max(m.Fanout, r.Fanout)
	m.DecodeErrors += r.DecodeErrors
	m.CheckCPUSeconds += r.CheckCPUSeconds
	m.Errors += r.Errors
	m.Reconnects += r.Reconnects
	m.MsgsPerS += r.MsgsPerS
	m.WireBytesPerMsg += r.WireBytesPerMsg * n
	m.PayloadBytesPerMsg += r.PayloadBytesPerMsg * n
	m.FramingBytesPerMsg += r.FramingBytesPerMsg * n
	m.Base64BytesPerMsg += r.Base64BytesPerMsg * n
	m.ServerCPUSeconds = max(m.ServerCPUSeconds, r.ServerCPUSeconds)
	m.PeakRSSBytes = max(m.PeakRSSBytes, r.PeakRSSBytes)
	m.PublisherLagP50Ms = max(m.PublisherLagP50Ms, r.PublisherLagP50Ms)
	m.PublisherLagP99Ms = max(m.PublisherLagP99Ms, r.PublisherLagP99Ms)
	m.PublisherLagMaxMs = max(m.PublisherLagMaxMs, r.PublisherLagMaxMs)
	m.Overflows += r.Overflows
	m.Dropped += r.Dropped
	m.ReplayMisses += r.ReplayMisses
	if m.Error == "" {
		m.Error = r.Error
	}
	if m.Compression == "" {
		m.Compression = r.Compression // a run whose server compressed
	}
}

// mergeHTTP adds r into m; weighted sums are divided out by Merge.
func mergeHTTP(m *HTTPResult, r HTTPResult) {
	m.Rate += r.Rate
	m.DurationS = max(m.DurationS, r.DurationS)
	m.Conns += r.Conns
	m.Requests += r.Requests
	m.OK += r.OK
	m.Errors += r.Errors
	m.RequestsPerS += r.RequestsPerS
	m.BytesPerResponse += r.BytesPerResponse * float64(r.OK)
	m.BytesPerRequest += r.BytesPerRequest * float64(r.OK)
	n := float64(r.ServerRequests)
	m.ServerRequests += r.ServerRequests
	m.ServerCPUUsPerReq += r.ServerCPUUsPerReq * n
	m.ServerHeapBytesPerReq += r.ServerHeapBytesPerReq * n
	m.ServerAllocsPerReq += r.ServerAllocsPerReq * n
	if m.CPUScope != r.CPUScope {
		m.CPUScope = "servers"
	}
	if m.Error == "" {
		m.Error = r.Error
	}
}

// checkClocks compares the sources' start and end times with maxSkew.
func checkClocks(src []Source, maxSkew time.Duration) (ClockCheck, []string) {
	c := ClockCheck{MaxSkewMs: float64(maxSkew) / float64(time.Millisecond), OK: true}
	var warn []string
	minS, maxS := src[0].Started, src[0].Started
	for _, s := range src[1:] {
		if s.Started.Before(minS) {
			minS = s.Started
		}
		if s.Started.After(maxS) {
			maxS = s.Started
		}
	}
	spread := maxS.Sub(minS)
	c.StartSpreadMs = float64(spread) / float64(time.Millisecond)
	if spread > maxSkew {
		c.OK = false
		warn = append(warn, fmt.Sprintf("start times %v apart (more than %v): clocks offset or runs not started together", spread, maxSkew))
	}
	var ends []time.Time
	for _, s := range src {
		if s.Finished == nil {
			warn = append(warn, fmt.Sprintf("%s has no end time: end spread and overlap not checked", s.Name))
			c.OK = false
			return c, warn
		}
		ends = append(ends, *s.Finished)
	}
	minE, maxE := ends[0], ends[0]
	for _, e := range ends[1:] {
		if e.Before(minE) {
			minE = e
		}
		if e.After(maxE) {
			maxE = e
		}
	}
	es := float64(maxE.Sub(minE)) / float64(time.Millisecond)
	ov := minE.Sub(maxS).Seconds()
	c.EndSpreadMs, c.OverlapS = &es, &ov
	if maxE.Sub(minE) > maxSkew {
		c.OK = false
		warn = append(warn, fmt.Sprintf("end times %v apart (more than %v): clocks offset or runs of different lengths", maxE.Sub(minE), maxSkew))
	}
	if ov <= 0 {
		c.OK = false
		warn = append(warn, fmt.Sprintf("the runs never ran at once (the last started %.3gs after the first ended)", -ov))
	}
	return c, warn
}

// mergeFormats are the formats of a merged report.
var mergeFormats = document.Formats[MergeReport]{Package: "load", Document: "merge", List: []document.Format[MergeReport]{
	{Name: "table", Write: WriteMergeTable},
	{Name: "json", Write: WriteMergeJSON},
}}

// WriteMerge writes m in format, "table" or "json"; an unknown format is
// a *document.UnknownFormatError.
func WriteMerge(w io.Writer, format string, m MergeReport) error {
	return mergeFormats.Write(w, format, m)
}

// WriteMergeJSON writes m as indented JSON.
func WriteMergeJSON(w io.Writer, m MergeReport) error {
	return document.WriteJSON(w, "load", "  ", m)
}

// WriteMergeTable writes m as text: the sources, the clock check and its
// warnings, then the merged results as WriteTable lays them out, text from
// the reports escaped as there.
func WriteMergeTable(w io.Writer, m MergeReport) error {
	return document.WriteTerminal(w, func(w io.Writer) error { return writeMergeTable(w, m) })
}

// writeMergeTable is WriteMergeTable before the terminal escaping.
func writeMergeTable(w io.Writer, m MergeReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "serbench merge: %d runs\n", len(m.Sources))
	for _, s := range m.Sources {
		end := "?"
		if s.Finished != nil {
			end = s.Finished.UTC().Format("15:04:05.000")
		}
		host := s.Host
		if host == "" {
			host = "?"
		}
		fmt.Fprintf(&b, "  %s  host %s  %s .. %s UTC\n", cell(s.Name), cell(host), s.Started.UTC().Format("15:04:05.000"), end)
	}
	c := m.Clock
	fmt.Fprintf(&b, "clock check: starts within %.0fms", c.StartSpreadMs)
	if c.EndSpreadMs != nil {
		fmt.Fprintf(&b, ", ends within %.0fms, all running together for %.1fs", *c.EndSpreadMs, *c.OverlapS)
	}
	verdict := "ok"
	if !c.OK {
		verdict = "NOT ok"
	}
	fmt.Fprintf(&b, " (threshold %.0fms): %s\n", c.MaxSkewMs, verdict)
	for _, x := range m.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", cell(x))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	if m.Processes != nil {
		if err := writeProcesses(w, m.Processes); err != nil {
			return err
		}
	}
	if len(m.Transport) > 0 {
		if err := writeTransportTable(w, m.Transport); err != nil {
			return err
		}
	}
	if len(m.HTTP) > 0 {
		if len(m.Transport) > 0 {
			fmt.Fprintln(w)
		}
		return writeHTTPTable(w, m.HTTP)
	}
	return nil
}
