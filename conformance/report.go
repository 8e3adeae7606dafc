package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
)

// ReportOptions configure NewReport: the suites and codec IDs (Options),
// and the environment.
type ReportOptions struct {
	Options
	// Env returns the environment the report records, given when the run
	// started and the codecs that got a row. Default env.Collect with
	// their modules.
	Env func(started time.Time, used []codec.Codec) env.Env
}

// Validate returns an error for a suite ID that is not one of Suites.
func (o Options) Validate() error {
	for _, s := range o.Suites {
		if !slices.Contains(Suites, s) {
			return fmt.Errorf("conformance: unknown suite %q (valid: %s)", s, strings.Join(Suites, ", "))
		}
	}
	return nil
}

// NewReport runs the suites of o against codecs (Run) and returns the
// complete report: its rows and the environment.
func NewReport(ctx context.Context, codecs []codec.Codec, o ReportOptions) (*Report, error) {
	started := time.Now()
	rows, err := Run(ctx, codecs, o.Options)
	if err != nil {
		return nil, err
	}
	var used []codec.Codec
	for _, c := range codecs {
		if slices.ContainsFunc(rows, func(r Row) bool { return r.Codec == c.Info().ID }) {
			used = append(used, c)
		}
	}
	if o.Env == nil {
		o.Env = codec.Env
	}
	return &Report{Schema: Schema, Env: o.Env(started, used), Rows: rows}, nil
}
