package hostile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
)

// RunOptions configure Run.
type RunOptions struct {
	// Codecs are the codecs whose decoders are fed, in order. Required.
	Codecs []codec.Codec
	// Scenarios are the scenarios each codec encodes validly before the
	// inputs are made from that encoding. Required. The child process must
	// find every (codec, scenario) by its Target name (see Targets).
	Scenarios []scenario.Scenario
	// Limits apply to every child; the zero value means the defaults.
	Limits Limits
	// Gen says which inputs are made (Generate).
	Gen GenOptions
	// Progress, if set, is called before each codec with its ID, its
	// position from 1 and the number of codecs.
	Progress func(codecID string, i, n int)
	// Each, if set, is called after each (codec, scenario) with its Row and
	// the inputs fed (by Input.Name, as Row.Findings name them). An error
	// from it stops Run.
	Each func(row Row, inputs []Input) error
	// Save, when set, is a folder (made if missing) where the input of each
	// finding is written, as <codec>_<scenario>_<input>.bin (with "/",
	// "=", "@" and "^" replaced to make a file name).
	Save string
	// Env returns the environment the document records, given when Run
	// started and the codecs fed. Default env.Collect with their
	// modules.
	Env func(started time.Time, used []codec.Codec) env.Env
}

// Validate returns an error naming the first option out of range: no
// codecs or scenarios, Limits (Limits.Effective, and a Time or MaxKills
// below zero) or a Gen.Depth below zero.
func (o RunOptions) Validate() error {
	if len(o.Codecs) == 0 || len(o.Scenarios) == 0 {
		return fmt.Errorf("hostile: Run needs codecs and scenarios (%d codecs, %d scenarios)", len(o.Codecs), len(o.Scenarios))
	}
	if o.Gen.Depth < 0 {
		return fmt.Errorf("hostile: invalid depth %d (must be at least 1)", o.Gen.Depth)
	}
	_, err := o.Limits.Effective()
	return err
}

// Run feeds every codec's decoder, bound to every scenario's type, the
// inputs Generate makes from the codec's valid encoding of the scenario,
// in a guarded child process per (codec, scenario) (Guard.Run), and
// returns the Document with one Row per pair, in order; Env is left for
// the environment (Env). A codec that cannot encode a scenario (no schema
// for it, or an error) is a Row with Error set, not an error of Run. Bad
// options (Validate), a Save folder that cannot be made or written, a child
// that cannot be started, ctx's end or an error from Each are errors.
func Run(ctx context.Context, opts RunOptions) (*Document, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	limits, _ := opts.Limits.Effective() // checked by Validate
	if opts.Save != "" {
		if err := os.MkdirAll(opts.Save, 0o755); err != nil {
			return nil, fmt.Errorf("hostile: save %s: %w", opts.Save, err)
		}
	}
	if opts.Env == nil {
		opts.Env = codec.Env
	}
	doc := &Document{Env: opts.Env(time.Now(), opts.Codecs), Seed: opts.Gen.Seed, Limits: limits, Rlimit: limits.Rlimit()}
	guard := Guard{Limits: limits}
	for i, c := range opts.Codecs {
		info := c.Info()
		if opts.Progress != nil {
			opts.Progress(info.ID, i+1, len(opts.Codecs))
		}
		for _, s := range opts.Scenarios {
			valid, err := validEncoding(c, s)
			if err != nil {
				doc.Rows = append(doc.Rows, Row{Codec: info.ID, Scenario: s.ID, Error: err.Error()})
				continue
			}
			inputs := Generate(info.Format, valid, opts.Gen)
			results, err := guard.Run(ctx, Target(info.ID, s.ID), valid, inputs)
			if err != nil {
				return nil, fmt.Errorf("hostile: %s %s: %w", info.ID, s.ID, err)
			}
			row := Summarize(info.ID, s.ID, results)
			doc.Rows = append(doc.Rows, row)
			if opts.Save != "" {
				if err := saveFindings(opts.Save, row, inputs); err != nil {
					return nil, err
				}
			}
			if opts.Each != nil {
				if err := opts.Each(row, inputs); err != nil {
					return nil, err
				}
			}
		}
	}
	return doc, nil
}

// saveFindings writes the input of each of row's findings into dir.
func saveFindings(dir string, row Row, inputs []Input) error {
	byName := make(map[string][]byte, len(inputs))
	for _, in := range inputs {
		byName[in.Name] = in.Data
	}
	clean := strings.NewReplacer("/", "-", "=", "-", "@", "-at-", "^", "")
	for _, f := range row.Findings {
		name := clean.Replace(row.Codec + "_" + row.Scenario + "_" + f.Input + ".bin")
		if err := os.WriteFile(filepath.Join(dir, name), byName[f.Input], 0o644); err != nil {
			return fmt.Errorf("hostile: save: %w", err)
		}
	}
	return nil
}

// Target names a (codec, scenario) decoder for a child process:
// "<codec ID>|<scenario ID>".
func Target(codecID, scenarioID string) string { return codecID + "|" + scenarioID }

// validEncoding returns c's encoding of s's value, or an error (a codec
// without a schema for the scenario, say).
func validEncoding(c codec.Codec, s scenario.Scenario) ([]byte, error) {
	b, err := c.Bind(s.Value())
	if err != nil {
		return nil, err
	}
	data, err := codec.Encode(b, s.Value())
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), data...), nil
}

// Targets is the child's Lookup for Run's targets: it finds the codec in
// reg and the scenario among scenarios, and decodes with the codec's
// Unmarshal bound to the scenario's type, followed by FromNative for
// codecs that decode into their own types (so a panic while converting
// counts too). The parent's and the child's scenarios must be the same.
func Targets(reg *codec.Registry, scenarios []scenario.Scenario) Lookup {
	return func(target string) (Decoder, error) {
		codecID, scenarioID, ok := strings.Cut(target, "|")
		if !ok {
			return nil, fmt.Errorf("hostile: target %q is not <codec>|<scenario>", target)
		}
		c, ok := reg.Lookup(codecID)
		if !ok {
			return nil, fmt.Errorf("hostile: unknown codec %q", codecID)
		}
		ss, err := scenario.Select(scenarios, []string{scenarioID})
		if err != nil {
			return nil, err
		}
		b, err := c.Bind(ss[0].Value())
		if err != nil {
			return nil, err
		}
		return func(data []byte) error {
			v, err := codec.UnmarshalUntrusted(b, data)
			if err != nil {
				return err
			}
			_, err = codec.Value(b, v)
			return err
		}, nil
	}
}
