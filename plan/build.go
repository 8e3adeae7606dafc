package plan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport/server"
)

// Options configure Build: the traffic, machine, budgets and prices
// (Inputs), where the codec figures come from, the transport's cost and
// the verify runs. Validate checks them once; Build calls it.
type Options struct {
	Inputs Inputs
	// MeasureTransport measures Inputs.Transport on this machine (with the
	// function MeasureTransport: a server in a child process for a few
	// seconds) instead of taking it as given.
	MeasureTransport bool
	// Via is the transport measured and verified: "sse" or "ws". Default
	// "sse", whose binary payloads travel as base64 (Transport.Base64 is
	// set from it).
	Via string
	// Source, when set, names a saved run (serbench run -format json)
	// whose results are the codec figures: Results when set, else the
	// file's (results.ReadFile); ScenarioIDs are the scenarios planned for.
	// Otherwise Codecs × Scenarios are measured (Benchtime, Count; in
	// parallel, with Compressors) and the document's Source is "measured".
	Results     []results.Row
	Source      string
	ScenarioIDs []string
	Codecs      []codec.Codec
	Scenarios   []scenario.Scenario
	// Corpus is the user's corpus file or folder that Scenarios were read
	// from (corpus.All), "" for none. A server child for a corpus
	// document planned (corpus/...) loads it again (Served).
	Corpus    string
	Benchtime time.Duration
	Count     int
	// Compressors are the compressor IDs compared besides None: those of
	// compressor/algorithms and the ones serve applies on Via
	// (ServeCompressors, measured by plan itself); another ID is a warning
	// and left out. With Verify, each must be one serve applies on Via
	// (CheckServeCompressors).
	Compressors []string
	// Verify, when > 0, runs the Top (>= 1) choices of each scenario
	// against a real server for this long each (VerifyPlan).
	Verify time.Duration
	Top    int
	// Registry tells binary codecs from text ones in saved runs and holds
	// the transport measurement's codec (TransportCodec). Required.
	Registry *codec.Registry
	// Warnings found while choosing these options head the document's.
	Warnings []string
	// Progress, when set, is called as the measurement advances (after
	// each unit of bench.Measure's work).
	Progress func(bench.Progress)
	// Log, when set, gets one line per verify run as it starts.
	Log io.Writer
	// Env returns the environment the document records, given when the
	// plan started and the codecs it measured. Default env.Collect
	// with their modules.
	Env func(started time.Time, measured []codec.Codec) env.Env
}

// Validate returns an error naming the first option out of range: Inputs
// (Inputs.Validate), Via, Top, a negative Verify, a Verify whose rate and
// fan-out need more connections than MaxVerifyConns (VerifyConns) or with
// a compressor serve cannot apply (CheckServeCompressors), a
// missing Registry or a Source without ScenarioIDs.
func (o Options) Validate() error {
	if err := o.Inputs.Validate(); err != nil {
		return err
	}
	switch {
	case o.Via != "" && o.Via != "sse" && o.Via != "ws":
		return fmt.Errorf("plan: unknown via %q (want sse or ws)", o.Via)
	case o.Top < 0 || (o.Top == 0 && o.Verify > 0):
		return fmt.Errorf("plan: invalid top %d (want >= 1)", o.Top)
	case o.Verify < 0:
		return fmt.Errorf("plan: invalid verify %v (want >= 0)", o.Verify)
	case o.Registry == nil:
		return errors.New("plan: no codec registry")
	case o.Source != "" && len(o.ScenarioIDs) == 0:
		return errors.New("plan: a saved run and no scenario to plan for")
	}
	if o.Verify > 0 {
		if _, _, err := VerifyConns(o.Inputs.Rate, o.Inputs.Fanout); err != nil {
			return err
		}
		if err := CheckServeCompressors(cmp.Or(o.Via, "sse"), o.Compressors); err != nil {
			return err
		}
	}
	return nil
}

// Build plans every scenario: the codec figures (measured, or read from
// Results or the Source file), the transport's cost (given or measured),
// one Plan per scenario with its -verify checks, and the environment. A
// scenario that cannot be answered is a warning; none answered is an
// error, as are bad options, a Source file that cannot be read and a
// failed measurement.
func Build(ctx context.Context, o Options) (Document, error) {
	if err := o.Validate(); err != nil {
		return Document{}, err
	}
	if o.Via == "" {
		o.Via = "sse"
	}
	started := time.Now()
	in := o.Inputs
	in.Transport.Base64 = o.Via == "sse"
	doc := Document{Schema: Schema, Source: "measured", TransportSource: "given"}
	comps, algs, warnings := compressors(o.Compressors, ServeCompressors(o.Via))
	warnings = append(warnings, o.Warnings...)
	rows, ids := o.Results, o.ScenarioIDs
	var measured []codec.Codec
	if o.Source != "" && rows == nil {
		saved, err := results.ReadFile(o.Source)
		if err != nil {
			return Document{}, err
		}
		rows = saved.Results
	}
	if o.Source != "" {
		doc.Source = o.Source
	} else {
		measured = carriers(o.Codecs)
		ids = nil
		for _, s := range o.Scenarios {
			ids = append(ids, s.ID)
		}
		m, err := bench.Measure(ctx, measured, o.Scenarios, bench.Options{Benchtime: o.Benchtime, Count: o.Count,
			Parallel: true, Compressors: algs, Progress: o.Progress})
		if err != nil {
			return Document{}, err
		}
		rows = m.Results
	}
	srv, err := o.served(ids)
	if err != nil {
		return Document{}, err
	}
	if o.MeasureTransport {
		t, err := MeasureTransport(ctx, o.Registry, o.Via, in.Rate, in.Fanout, o.Verify, ids, srv)
		if err != nil {
			return Document{}, fmt.Errorf("plan: measuring the transport (give -transport NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES to skip): %w", err)
		}
		in.Transport, doc.TransportSource = t, "measured"
	}
	answered := 0
	for _, id := range ids {
		opts := FromResults(rows, id, comps, in.Cores)
		if err := o.measureServeCompression(id, opts, in); err != nil {
			return Document{}, err
		}
		noScaling := false
		for i := range opts {
			c, ok := o.Registry.Lookup(opts[i].Codec)
			if opts[i].Compressor != SSEGzip { // its compressed bytes are the body, not base64
				opts[i].Binary = opts[i].Compressor != None || (ok && c.Info().Binary)
			}
			noScaling = noScaling || (opts[i].Error == "" && opts[i].SendEfficiency == 0)
		}
		if noScaling {
			warnings = append(warnings, fmt.Sprintf("%s: the run has no parallel figures for some codecs (serbench run -parallel): their efficiency is taken as 1", id))
		}
		if len(opts) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s: no codec results for this scenario", id))
			continue
		}
		res, err := Compute(in, opts)
		if errors.Is(err, ErrNoOption) {
			warnings = append(warnings, fmt.Sprintf("%s: no codec can carry this payload", id))
		} else if err != nil {
			return Document{}, err
		} else {
			answered++
		}
		p := Plan{Scenario: id, Options: opts, Result: res}
		if o.Verify > 0 && err == nil {
			p.Verify = VerifyPlan(ctx, o.Log, o.Registry, o.Via, id, in, opts, res, o.Top, o.Verify, srv)
		}
		doc.Plans = append(doc.Plans, p)
	}
	doc.Warnings = warnings
	if o.Env == nil {
		o.Env = codec.Env
	}
	doc.Env = o.Env(started.UTC(), measured)
	if answered == 0 {
		return Document{}, fmt.Errorf("plan: nothing can be answered: %s", strings.Join(warnings, "; "))
	}
	return doc, nil
}

// compressors splits the compressor IDs into those of
// compressor/algorithms or serve (without None, each once) and the
// algorithms of the former; an unknown ID is a warning and left out.
func compressors(names, serve []string) (ids []string, algs []compressor.Algorithm, warnings []string) {
	for _, id := range names {
		if id == None || slices.Contains(ids, id) {
			continue
		}
		if slices.Contains(serve, id) {
			ids = append(ids, id)
			continue
		}
		a, err := algorithms.Select([]string{id})
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("-compress: %v; left out", err))
			continue
		}
		ids, algs = append(ids, id), append(algs, a...)
	}
	return ids, algs, warnings
}

// carriers drops the codecs that cannot carry a message: reference rows
// and parse-only codecs.
func carriers(cs []codec.Codec) []codec.Codec {
	var out []codec.Codec
	for _, c := range cs {
		if i := c.Info(); i.Kind != codec.Reference && !i.ParseOnly {
			out = append(out, c)
		}
	}
	return out
}

// Served is what the server child of MeasureTransport and VerifyPlan
// serves: Scenarios, and Arg, the child's argument (server.StartProcess)
// that makes it load the corpus documents among them.
type Served struct {
	Scenarios []scenario.Scenario
	Arg       string
}

// ChildServed is what a server child serves without an argument:
// server.ChildScenarios, the seeds and annot/*.
func ChildServed() Served { return Served{Scenarios: server.ChildScenarios()} }

// served returns what the server child serves for a plan of the
// scenarios ids: ChildServed, plus the corpus documents among ids that o
// measured (corpus/..., from the Go toolchain or o.Corpus), which the
// child reads again (server.CorpusArg with o.Corpus made absolute). A
// plan from a saved run (-from) has no scenario values, so its corpus
// documents are not served. The error is filepath.Abs's.
func (o Options) served(ids []string) (Served, error) {
	srv := ChildServed()
	var extra []scenario.Scenario
	for _, s := range o.Scenarios {
		if strings.HasPrefix(s.ID, "corpus/") && slices.Contains(ids, s.ID) &&
			!slices.ContainsFunc(srv.Scenarios, func(x scenario.Scenario) bool { return x.ID == s.ID }) {
			extra = append(extra, s)
		}
	}
	if len(extra) == 0 {
		return srv, nil
	}
	path := o.Corpus
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return Served{}, fmt.Errorf("plan: -corpus: %w", err)
		}
		path = abs
	}
	return Served{Scenarios: server.WithScenarios(extra), Arg: server.CorpusArg(path)}, nil
}

// DefaultScenarios returns the scenario IDs a plan is made for when none
// are named: every scenario of the corpus at path (corpus/<name>,
// corpus.Files), or ws-message without a corpus (path ""). The error is
// corpus.Files's.
func DefaultScenarios(path string) ([]string, error) {
	if path == "" {
		return []string{"ws-message"}, nil
	}
	ss, err := corpus.Files(path, corpus.Options{})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	return ids, nil
}

// measureServeCompression fills in the options of scenario id (opts, from
// FromResults) whose compressor serve applies on o.Via
// (MeasurePermessageDeflate, MeasureSSEGzip with the interval between two
// messages of a stream at in's rate), from
// the codec's None option; a scenario that is neither measured nor a
// seed, or a codec the registry lacks, leaves them with an Error saying
// so. A failed measurement is an error.
func (o Options) measureServeCompression(id string, opts []Option, in Inputs) error {
	var s *scenario.Scenario
	for _, x := range append(slices.Clone(o.Scenarios), server.ChildScenarios()...) { // corpus documents are in o.Scenarios
		if x.ID == id {
			s = &x
			break
		}
	}
	benchtime, count := cmp.Or(o.Benchtime, defaultBenchtime), cmp.Or(o.Count, defaultCount)
	streams := max(math.Ceil(in.Rate/verifyConnRate), 1)
	gap := time.Duration(float64(time.Second) * streams / max(in.Rate, 1e-9))
	base := map[string]Option{}
	for i, op := range opts {
		switch {
		case op.Compressor == None:
			base[op.Codec] = op
		case !slices.Contains(ServeCompressors(o.Via), op.Compressor) || base[op.Codec].Error != "":
		case s == nil:
			opts[i].Error = fmt.Sprintf("%s is measured for the seeds, annot/* and the measured scenarios only", op.Compressor)
		default:
			c, ok := o.Registry.Lookup(op.Codec)
			if !ok {
				opts[i].Error = fmt.Sprintf("%s: codec %s not registered", op.Compressor, op.Codec)
				continue
			}
			var m Option
			var err error
			if op.Compressor == SSEGzip {
				m, err = MeasureSSEGzip(c, *s, base[op.Codec], gap, benchtime, count)
			} else {
				m, err = MeasurePermessageDeflate(c, *s, base[op.Codec], benchtime, count)
			}
			if err != nil {
				return err
			}
			opts[i] = m
		}
	}
	return nil
}

// The timing of a compressor plan measures itself when Options give none
// (a saved run): as `serbench plan`'s own quick run.
const (
	defaultBenchtime = 5 * time.Millisecond
	defaultCount     = 6
)
