package bench

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/results"
)

// Op is one operation of a codec bound to one value, checked and ready to
// time: what Matrix times for one cell, for callers that time it with their
// own loop (package serbench does, under testing.B).
type Op struct {
	// Name is results.OpMarshal, OpUnmarshal, OpConvert or (parse-only codecs) OpParse.
	Name string
	// Size is the encoded value in bytes; 0 when the codec could not
	// marshal it.
	Size int
	// NA is true when the codec cannot take the value at all; Err says why.
	NA bool
	// Err is nil when the value round-tripped and compared equal. Otherwise
	// it is the n/a reason, the failed step, or the difference the compare
	// function returned; an Op with a difference is still timed (Run is set).
	Err error
	// AliasesInput is results.Row.AliasesInput of the unmarshal or parse op.
	AliasesInput *bool
	// Run performs n operations on a Binding of its own and keeps the last
	// result alive; nil when the operation cannot run (n/a, or an earlier
	// step of the round trip failed). It is not safe for concurrent use.
	Run func(n int) error
}

// Prepare binds c to sample (a non-nil pointer), round-trips it once and
// compares the result with sample using diff, exactly as Matrix does before
// it times a cell, and returns the operations: marshal, unmarshal and, when
// the Binding is a codec.Converter, convert. newValue, when not nil, makes
// the values Unmarshal decodes into (scenario.Scenario.New,
// codec.BindNew). A nil diff means fidelity.Diff.
func Prepare(c codec.Codec, sample any, newValue func() any, diff func(want, got any) error) []Op {
	if diff == nil {
		diff = fidelity.Diff
	}
	cells := prepare(c, "", sample, newValue, diff)
	ops := make([]Op, len(cells))
	for i, x := range cells {
		ops[i] = Op{Name: x.Op, Size: x.size, NA: x.NA, Err: x.failed, Run: x.fn, AliasesInput: x.AliasesInput}
	}
	return ops
}

// prepare binds c to the scenario, round-trips once, compares with diff and
// builds the timed functions. It returns the cells for marshal, unmarshal
// and, for converting codecs, convert.
func prepare(c codec.Codec, scenarioID string, sample any, newValue func() any, diff func(want, got any) error) []*cell {
	info := c.Info()
	if info.ParseOnly {
		return prepareParse(c, scenarioID, sample)
	}
	mk := func(op string) *cell {
		return &cell{Row: results.Row{Codec: info.ID, Scenario: scenarioID, Op: op}}
	}
	m, u := mk(results.OpMarshal), mk(results.OpUnmarshal)
	na := func(err error) []*cell {
		for _, x := range []*cell{m, u} {
			x.NA, x.Error, x.failed = true, err.Error(), err
		}
		return []*cell{m, u}
	}
	b, err := codec.BindNew(c, sample, newValue)
	if err != nil {
		return na(err)
	}
	_, isConv := b.(codec.Converter)
	bind := binder(c, sample, newValue)
	b, in, err := bind()
	if err != nil {
		return na(err)
	}
	data, err := b.Marshal(in)
	if err != nil {
		return na(fmt.Errorf("marshal: %w", err))
	}
	data = bytes.Clone(data) // a reusing codec may overwrite its output on the next call
	m.SizeBytes, u.SizeBytes = len(data), len(data)
	m.size, u.size = len(data), len(data)
	m.encoded = data
	m.newFn = marshalLoop(bind)
	cells := []*cell{m, u}
	var cv *cell
	if isConv {
		cv = mk(results.OpConvert)
		cells = append(cells, cv)
	}
	out, err := b.Unmarshal(data)
	if err != nil {
		u.failed = fmt.Errorf("unmarshal: %w", err)
		m.failed = fmt.Errorf("round trip failed: %w", u.failed)
		if cv != nil {
			cv.failed = errors.New("not measured: unmarshal failed")
		}
		return ready(cells)
	}
	u.newFn = unmarshalLoop(bind, data)
	if out, err = codec.Value(b, out); err != nil {
		cv.failed = err
		m.failed, u.failed = cv.failed, cv.failed
		return ready(cells)
	}
	if isConv {
		cv.newFn = convertLoop(bind, sample)
	}
	if info.Kind != codec.Reference {
		if d := diff(sample, out); d != nil {
			for _, x := range cells {
				x.failed = d
			}
		} else {
			u.AliasesInput = probeAliases(info, bind, data, func(b codec.Binding, out any) error {
				v, err := codec.Value(b, out)
				if err != nil {
					return err
				}
				return diff(sample, v)
			})
		}
	}
	return ready(cells)
}

// prepareParse is prepare for a parse-only codec (codec.Info.ParseOnly):
// one cell, OpParse, whose input is the Binding's Marshal of sample (its
// encoding/json text). The round-trip check walks the parsed tree
// (codec.DOM) and compares it with the input decoded by encoding/json
// (codec.JSONTree) using fidelity.Diff.
func prepareParse(c codec.Codec, scenarioID string, sample any) []*cell {
	p := &cell{Row: results.Row{Codec: c.Info().ID, Scenario: scenarioID, Op: results.OpParse}}
	bind := binder(c, sample, nil)
	b, in, err := bind()
	if err != nil {
		p.NA, p.Error, p.failed = true, err.Error(), err
		return []*cell{p}
	}
	data, err := b.Marshal(in)
	if err != nil {
		p.NA, p.Error, p.failed = true, "input: "+err.Error(), fmt.Errorf("input: %w", err)
		return []*cell{p}
	}
	data = bytes.Clone(data)
	p.SizeBytes, p.size = len(data), len(data)
	p.failed = checkParse(b, data)
	if !errors.Is(p.failed, errParseFailed) {
		p.newFn = unmarshalLoop(bind, data)
	}
	if p.failed == nil {
		if want, err := codec.JSONTree(data); err == nil {
			p.AliasesInput = probeAliases(c.Info(), bind, data, func(b codec.Binding, doc any) error {
				got, err := b.(codec.DOM).Tree(doc)
				if err != nil {
					return err
				}
				return fidelity.Diff(want, got)
			})
		}
	}
	return ready([]*cell{p})
}

// probeAliases runs the alias probe (codec.AliasesInput) on data with a
// Binding of its own, check comparing what it decoded; nil when the probe
// could not run. A ZeroCopy codec is true without a probe
// (results.Row.AliasesInput).
func probeAliases(info codec.Info, bind func() (codec.Binding, any, error), data []byte, check func(codec.Binding, any) error) *bool {
	if info.ZeroCopy {
		return new(true)
	}
	b, _, err := bind()
	if err != nil {
		return nil
	}
	aliases, err := codec.AliasesInput(b, data, func(out any) error { return check(b, out) })
	if err != nil {
		return nil
	}
	return &aliases
}

// errParseFailed is wrapped when a parse-only codec's parse itself failed.
var errParseFailed = errors.New("parse failed")

// checkParse parses data with b and compares the tree with encoding/json's
// reading of data.
func checkParse(b codec.Binding, data []byte) error {
	dom, ok := b.(codec.DOM)
	if !ok {
		return fmt.Errorf("%w: the Binding of a parse-only codec does not implement codec.DOM", errParseFailed)
	}
	doc, err := b.Unmarshal(data)
	if err != nil {
		return fmt.Errorf("%w: %w", errParseFailed, err)
	}
	got, err := dom.Tree(doc)
	if err != nil {
		return fmt.Errorf("tree: %w", err)
	}
	want, err := codec.JSONTree(data)
	if err != nil {
		return err
	}
	return fidelity.Diff(want, got)
}
