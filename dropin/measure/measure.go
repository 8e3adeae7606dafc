// Package measure measures whether a codec can replace the reference codec
// of its format without its users noticing: the same marshal bytes on the
// seed scenarios and the same decode behaviour on the fidelity probes
// (package probe), both codecs run on each. Same bytes alone is not
// enough: a codec that writes encoding/json's bytes but decodes -0 as 0,
// or accepts a nesting depth encoding/json refuses, changes what a
// program does.
//
// The verdict is a dropin.Verdict of class Yes, SameBytes (same bytes, some
// probe differs) or No (some seed's bytes differ), with the seeds and
// probes that differ. Documents carry it beside a codec's codec.Info, never
// in it.
package measure

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/probe"
	"github.com/serbench/serbench/scenario"
)

// references maps a wire format (codec.Info.Format) to the ID of the codec
// a drop-in replacement is measured against: the standard library's for
// JSON, and for MessagePack and CBOR the most used Go library of the
// format (vmihailenco/msgpack, fxamacker/cbor).
var references = map[string]string{
	"JSON":        "encoding/json",
	"MessagePack": "msgpack",
	"CBOR":        "cbor",
}

// Reference returns the ID of the reference codec of format, and false
// when the format has none.
func Reference(format string) (string, bool) {
	id, ok := references[format]
	return id, ok
}

// DefaultRepeats is Options.Repeats's default: how many times each codec
// marshals each seed scenario. A codec that writes map keys in Go's map
// order can match the reference's sorted order often: a small map's
// iteration starts at a random one of its group's eight slots, so a
// three-key map whose slots hold its keys in sorted order comes out sorted
// six times in eight. Matching on all 100 marshals then has a chance of
// 0.75^100, about 3e-13.
const DefaultRepeats = 100

// Options control Measure. The zero value means defaults.
type Options struct {
	// Scenarios are the values whose marshal bytes are compared; nil
	// means scenario.Seeds().
	Scenarios []scenario.Scenario
	// Probes are the values whose round trips are compared; nil means
	// probe.Catalog().
	Probes []probe.Probe
	// Isolate runs a probe whose Isolate field is set (it may make a
	// library recurse without end) in a child process, as
	// probe.Options.Isolate. Nil: those probes are not compared.
	Isolate func(ctx context.Context, c codec.Codec, p probe.Probe) probe.Cell
	// Repeats is how many times each codec marshals each scenario; 0
	// means DefaultRepeats.
	Repeats int
	// Timeout bounds one in-process round trip of a probe; 0 means
	// probe.DefaultTimeout. One that takes longer is an Error cell.
	Timeout time.Duration
}

// Measure compares c with ref, the reference codec of c's format, and
// returns c's class. It returns ctx's error when ctx is done; a library
// failure is a finding (a difference), never an error. A probe whose
// outcomes are compared in this process goes through both codecs on the
// same Go type (through its seed scenario field for both when one of
// them has no schema for the probe's own type), and two outcomes are the
// same when both kept or changed the value into equal values
// (fidelity.DiffStrict), both failed in the same step (ErrorStep), or
// both could not take it (then the probe is not compared). A probe run in
// a child process (Options.Isolate) returns no value: there the status
// and the first difference are compared.
func Measure(ctx context.Context, ref, c codec.Codec, opts Options) (*dropin.Verdict, error) {
	if opts.Scenarios == nil {
		opts.Scenarios = scenario.Seeds()
	}
	if opts.Probes == nil {
		opts.Probes = probe.Catalog()
	}
	if opts.Repeats <= 0 {
		opts.Repeats = DefaultRepeats
	}
	if opts.Timeout <= 0 {
		opts.Timeout = probe.DefaultTimeout
	}
	d := &dropin.Verdict{Of: ref.Info().ID}
	for _, s := range opts.Scenarios {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if why := sameBytes(ref, c, s, opts.Repeats); why != "" {
			d.Bytes = append(d.Bytes, s.ID+": "+why)
		}
	}
	for _, p := range opts.Probes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var r, g probe.Cell
		var same bool
		var valueDiff error
		if p.Isolate {
			if opts.Isolate == nil {
				d.NotCompared = append(d.NotCompared, p.ID)
				continue
			}
			r, g = isolated(ctx, ref, p, opts.Isolate), isolated(ctx, c, p, opts.Isolate)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			same = sameCells(r, g)
		} else {
			rt, gt, err := trips(ctx, ref, c, p, opts.Timeout)
			if err != nil {
				return nil, err
			}
			r, g = rt.Cell, gt.Cell
			same = sameCells(r, g)
			if same && rt.Value != nil {
				valueDiff = fidelity.DiffStrict(rt.Value, gt.Value)
				same = valueDiff == nil
			}
		}
		if r.Status == probe.NA || g.Status == probe.NA {
			d.NotCompared = append(d.NotCompared, p.ID)
			continue
		}
		d.Compared++
		if !same {
			o := dropin.ProbeOutcome{Probe: p.ID, Ref: Outcome(r), Got: Outcome(g)}
			var m *fidelity.Mismatch
			if errors.As(valueDiff, &m) {
				path := m.Path
				if path == "" {
					path = "(root)"
				}
				o.Got += fmt.Sprintf(", but another value: %s: %s → %s", path, m.Want, m.Got)
			}
			d.Probes = append(d.Probes, o)
		}
	}
	switch {
	case len(d.Bytes) > 0:
		d.Class = dropin.No
	case len(d.Probes) > 0:
		d.Class = dropin.SameBytes
	default:
		d.Class = dropin.Yes
	}
	return d, nil
}

// trips round-trips p through ref and c on the same Go type: the probe's
// own, or its seed scenario field for both when either needed it. Each
// round trip that takes longer than timeout is an Error cell (its
// goroutine is left running: a library call cannot be stopped); the
// error is ctx's when ctx is done.
func trips(ctx context.Context, ref, c codec.Codec, p probe.Probe, timeout time.Duration) (probe.Trip, probe.Trip, error) {
	trip := func(c codec.Codec, viaSeed bool) (probe.Trip, error) {
		done := make(chan probe.Trip, 1)
		go func() { done <- probe.RoundTrip(c, p, viaSeed) }()
		t := time.NewTimer(timeout)
		defer t.Stop()
		select {
		case tr := <-done:
			return tr, nil
		case <-t.C:
			return probe.Trip{Cell: probe.Cell{Codec: c.Info().ID, Probe: p.ID, Status: probe.Error,
				Error: fmt.Sprintf("no answer within %v (the library call was left running)", timeout)}}, nil
		case <-ctx.Done():
			return probe.Trip{}, ctx.Err()
		}
	}
	rt, err := trip(ref, false)
	if err != nil {
		return rt, rt, err
	}
	gt, err := trip(c, false)
	if err != nil {
		return rt, gt, err
	}
	switch {
	case gt.Cell.Via != "" && rt.Cell.Via == "":
		rt, err = trip(ref, true)
	case rt.Cell.Via != "" && gt.Cell.Via == "":
		gt, err = trip(c, true)
	}
	return rt, gt, err
}

// sameCells reports whether two cells of one probe have the same outcome
// as far as cells tell: the same status, the same first difference of a
// Changed cell, the same failing step of an Error cell.
func sameCells(r, g probe.Cell) bool {
	if r.Status != g.Status {
		return false
	}
	switch r.Status {
	case probe.Changed:
		return r.Path == g.Path && r.Want == g.Want && r.Got == g.Got
	case probe.Error:
		return ErrorStep(r) == ErrorStep(g)
	}
	return true
}

// ErrorStep is the class of an Error cell's failure, the step that
// failed: what comes before the first ": " of its error ("bind", "convert
// to native", "marshal", "unmarshal", "convert from native", "compare";
// for a cell run in a child process "crashed" or "killed"), or the whole
// error when it has no such prefix (a cell that gave no answer in time).
// Two codecs whose errors differ only in their messages fail alike.
func ErrorStep(c probe.Cell) string {
	step, _, ok := strings.Cut(c.Error, ": ")
	if !ok {
		return c.Error
	}
	return step
}

// Outcome says a cell's outcome in a few words: "kept", "changed (PATH:
// WANT → GOT)", "error (STEP)", "n/a". Measure adds, where two cells of
// one status hold different values, ", but another value: PATH: REF's →
// this codec's".
func Outcome(c probe.Cell) string {
	switch c.Status {
	case probe.Changed:
		return "changed (" + c.Detail() + ")"
	case probe.Error:
		return "error (" + ErrorStep(c) + ")"
	}
	return string(c.Status)
}

// sameBytes marshals s's value with ref once and with c repeats times,
// and returns "" when every marshal of c gave ref's bytes, and otherwise
// why not.
func sameBytes(ref, c codec.Codec, s scenario.Scenario, repeats int) string {
	want, err := marshal(ref, s.Value())
	if err != nil {
		return fmt.Sprintf("%s cannot marshal it (%v)", ref.Info().ID, err)
	}
	for i := range repeats {
		got, err := marshal(c, s.Value())
		switch {
		case err != nil:
			return fmt.Sprintf("cannot marshal it (%v)", err)
		case !bytes.Equal(got, want):
			at := 0
			for at < min(len(got), len(want)) && got[at] == want[at] {
				at++
			}
			if i > 0 {
				return fmt.Sprintf("marshal %d of %d gave other bytes from byte %d on (%d B, %s wrote %d B): an unsorted map order, say", i+1, repeats, at, len(got), ref.Info().ID, len(want))
			}
			return fmt.Sprintf("other bytes from byte %d on (%d B, %s wrote %d B)", at, len(got), ref.Info().ID, len(want))
		}
	}
	return ""
}

// marshal binds c to v's type and marshals v (through ToNative for a
// Converter), recovering a panic into an error.
func marshal(c codec.Codec, v any) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	b, err := c.Bind(v)
	if err != nil {
		return nil, err
	}
	data, err = codec.Encode(b, v)
	return append([]byte(nil), data...), err
}

// isolated runs p through c with isolate, unless c cannot bind p's type
// (Bind does not walk the value, so that is safe in this process).
func isolated(ctx context.Context, c codec.Codec, p probe.Probe, isolate func(context.Context, codec.Codec, probe.Probe) probe.Cell) probe.Cell {
	info := c.Info()
	if info.Kind == codec.Reference || info.ParseOnly {
		return probe.RoundTrip(c, p, false).Cell // NA without calling the library
	}
	if _, err := c.Bind(p.New()); errors.Is(err, codec.ErrUnsupported) {
		return probe.Cell{Codec: info.ID, Probe: p.ID, Status: probe.NA, Error: err.Error()}
	}
	return isolate(ctx, c, p)
}

// Classes measures every codec of cs that has a reference codec of its
// format (Reference) and is not that reference, a parse-only codec or a
// reference row, against that reference, found with lookup
// (codec.Registry.Lookup); a reference lookup does not find is skipped.
// It returns the classes by codec ID. A reference's cells of isolated
// probes are run once and reused.
func Classes(ctx context.Context, cs []codec.Codec, lookup func(id string) (codec.Codec, bool), opts Options) (map[string]*dropin.Verdict, error) {
	out := map[string]*dropin.Verdict{}
	if iso := opts.Isolate; iso != nil {
		cache := map[[2]string]probe.Cell{}
		opts.Isolate = func(ctx context.Context, c codec.Codec, p probe.Probe) probe.Cell {
			k := [2]string{c.Info().ID, p.ID}
			if cell, ok := cache[k]; ok {
				return cell
			}
			cell := iso(ctx, c, p)
			if ctx.Err() == nil {
				cache[k] = cell
			}
			return cell
		}
	}
	for _, c := range cs {
		info := c.Info()
		refID, ok := Reference(info.Format)
		if !ok || refID == info.ID || info.ParseOnly || info.Kind == codec.Reference {
			continue
		}
		ref, ok := lookup(refID)
		if !ok {
			continue
		}
		d, err := Measure(ctx, ref, c, opts)
		if err != nil {
			return nil, err
		}
		out[info.ID] = d
	}
	return out, nil
}
