package probe

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
)

// DefaultTimeout is Options.Timeout's default: how long one cell may take
// in this process before it is reported as an Error.
const DefaultTimeout = 10 * time.Second

// Options control Run. The zero value means defaults.
type Options struct {
	// Timeout bounds one in-process cell; 0 means DefaultTimeout. A cell
	// that takes longer is an Error cell and its goroutine is left running
	// (a library call cannot be stopped from outside).
	Timeout time.Duration
	// Isolate runs one cell of a probe whose Isolate field is set, in a
	// child process (see Isolator). Nil: those cells are NA.
	Isolate func(ctx context.Context, c codec.Codec, p Probe) Cell
	// Progress, when set, is called after each cell with the number done
	// and the total.
	Progress func(done, total int)
}

// Run sends every probe through every codec and returns the cells, probe
// by probe and, within a probe, in the order of codecs. It returns early
// with ctx's error when ctx is done; library failures are cells, not
// errors.
func Run(ctx context.Context, codecs []codec.Codec, probes []Probe, opts Options) ([]Cell, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	cells := make([]Cell, 0, len(codecs)*len(probes))
	for _, p := range probes {
		for _, c := range codecs {
			if err := ctx.Err(); err != nil {
				return cells, err
			}
			var cell Cell
			switch {
			case p.Isolate && opts.Isolate != nil:
				// Bind does not walk the value, so a codec without a
				// schema for the type is found here, not in a child.
				if cell = bindOnly(c, p); cell.Status != NA {
					cell = opts.Isolate(ctx, c, p)
				}
			case p.Isolate:
				cell = Cell{Codec: c.Info().ID, Probe: p.ID, Status: NA, Error: "may recurse without bound: needs a child process (serbench fidelity runs one)"}
			default:
				cell = runWithTimeout(ctx, c, p, timeout)
			}
			cells = append(cells, cell)
			if opts.Progress != nil {
				opts.Progress(len(cells), cap(cells))
			}
		}
	}
	return cells, nil
}

// runWithTimeout runs RunCell in a goroutine and gives up after timeout.
func runWithTimeout(ctx context.Context, c codec.Codec, p Probe, timeout time.Duration) Cell {
	done := make(chan Cell, 1)
	go func() { done <- RunCell(c, p) }()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case cell := <-done:
		return cell
	case <-t.C:
		return Cell{Codec: c.Info().ID, Probe: p.ID, Status: Error, Error: fmt.Sprintf("no answer within %v (the library call was left running)", timeout)}
	case <-ctx.Done():
		return Cell{Codec: c.Info().ID, Probe: p.ID, Status: Error, Error: fmt.Sprintf("interrupted: %v", ctx.Err())}
	}
}

// RunCell round-trips one probe through one codec in this goroutine: Bind,
// ToNative, Marshal, Unmarshal, FromNative (the Converter steps only for
// codecs with their own types), then the probe's comparison. A codec that
// cannot bind the probe's type gets the probe's Seed instead, when it has
// one; Reference rows (memmove) are NA. A panic in
// any step is an Error cell "STEP: panic: VALUE". It does not guard against
// unbounded recursion (see Probe.Isolate) or a call that never returns.
func RunCell(c codec.Codec, p Probe) Cell { return RoundTrip(c, p, false).Cell }

// Trip is one probe's round trip through one codec (RoundTrip): its cell
// and what the codec decoded.
type Trip struct {
	Cell Cell
	// Value is the decoded value as the probe's comparison saw it (after
	// FromNative, and Seed.Get of it when the probe went through a seed
	// scenario), for a Kept or Changed cell; nil for the other statuses.
	Value any
}

// RoundTrip is RunCell that also returns the decoded value, for comparing
// what two codecs decode (package dropin). With viaSeed it sends the
// probe through its Seed even when c can bind the probe's own type (the
// cell is NA when p has no Seed), so that two codecs are compared on the
// same Go type.
func RoundTrip(c codec.Codec, p Probe, viaSeed bool) Trip {
	info := c.Info()
	cell := Cell{Codec: info.ID, Probe: p.ID}
	fail := func(step string, err error) Trip {
		cell.Status, cell.Error = Error, step+": "+err.Error()
		return Trip{Cell: cell}
	}
	na := func(why string) Trip {
		cell.Status, cell.Error, cell.Via = NA, why, ""
		return Trip{Cell: cell}
	}
	if info.Kind == codec.Reference {
		return na("a reference row, not a codec: it copies bytes and decodes nothing")
	}
	if info.ParseOnly {
		return na("parse only: parses into its own tree, no Go value to compare (serbench run checks its tree against encoding/json's)")
	}
	if viaSeed && p.Seed == nil {
		return na("the probe has no seed scenario field to go through")
	}
	want, in := p.New(), p.New()
	get := func(v any) any { return v }
	var b codec.Binding
	var err error
	if !viaSeed {
		err = guard(func() (err error) { b, err = c.Bind(in); return err })
	}
	if viaSeed || (errors.Is(err, codec.ErrUnsupported) && p.Seed != nil) {
		want, in, get, cell.Via = p.Seed.New(), p.Seed.New(), p.Seed.Get, p.Seed.Field
		err = guard(func() (err error) { b, err = c.Bind(in); return err })
	}
	if err != nil {
		if errors.Is(err, codec.ErrUnsupported) {
			return na(err.Error())
		}
		return fail("bind", err)
	}
	// The steps of codec.Encode, Unmarshal and codec.Value, each guarded on
	// its own so that a panic is charged to the step that raised it.
	conv, isConv := b.(codec.Converter)
	v := in
	if isConv {
		if err := guard(func() (err error) { v, err = conv.ToNative(in); return err }); err != nil {
			return fail("convert to native", err)
		}
	}
	var data []byte
	if err := guard(func() (err error) { data, err = b.Marshal(v); return err }); err != nil {
		return fail("marshal", err)
	}
	data = append([]byte(nil), data...) // a reusing Binding owns its buffer
	cell.Size = len(data)
	var out any
	if err := guard(func() (err error) { out, err = b.Unmarshal(data); return err }); err != nil {
		return fail("unmarshal", err)
	}
	if isConv {
		if err := guard(func() (err error) { out, err = conv.FromNative(out); return err }); err != nil {
			return fail("convert from native", err)
		}
	}
	cmp := p.Compare
	if cmp == nil {
		cmp = fidelity.Diff
	}
	var diff error
	if err := guard(func() error { diff = cmp(get(want), get(out)); return nil }); err != nil {
		return fail("compare", err)
	}
	if diff != nil {
		cell.Status = Changed
		var m *fidelity.Mismatch
		if errors.As(diff, &m) {
			cell.Path, cell.Want, cell.Got = m.Path, m.Want, m.Got
		} else {
			cell.Want, cell.Got = "equal", diff.Error()
		}
		return Trip{Cell: cell, Value: get(out)}
	}
	cell.Status = Kept
	if p.Wire != nil {
		cell.Note = p.Wire(info, data)
	}
	return Trip{Cell: cell, Value: get(out)}
}

// bindOnly returns an NA cell when c cannot bind p's type, and a cell with
// no status otherwise.
func bindOnly(c codec.Codec, p Probe) Cell {
	cell := Cell{Codec: c.Info().ID, Probe: p.ID}
	err := guard(func() error { _, err := c.Bind(p.New()); return err })
	if errors.Is(err, codec.ErrUnsupported) {
		cell.Status, cell.Error = NA, err.Error()
	}
	return cell
}

// guard calls f and turns a panic into an error "panic: VALUE".
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}
