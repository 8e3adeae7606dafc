package toolchain

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
)

// A Matrix chooses a worker's codecs and scenarios in this build, as a run
// does: ids are the codec IDs to measure (nil: the build's default set)
// and cfg gives the scenarios, the corpus and the baseline. It returns the
// codecs and scenarios in run order and the warnings of choosing them.
type Matrix func(ids []string, cfg Config) ([]codec.Codec, []scenario.Scenario, []string, error)

// PrepareWorker returns the Serve preparation of a run -go worker over
// reg: it chooses cfg's matrix with matrix and prepares its session
// (bench.NewSession) and environment. Of the codec IDs the driver resolved
// (Config.Codecs), those this build lacks (codec.Registry.Absences) are
// left out and reported in Prepared.Absent; when cfg names only such
// codecs, their reasons are the error. Other errors are matrix's and
// bench.NewSession's.
func PrepareWorker(reg *codec.Registry, matrix Matrix) func(context.Context, Config) (Prepared, error) {
	return func(ctx context.Context, cfg Config) (Prepared, error) {
		absent := reg.Absences()
		var ids []string
		if cfg.Codecs != nil {
			var lacking []string
			for _, id := range cfg.Codecs {
				if why, ok := absent[id]; ok {
					lacking = append(lacking, why)
					continue
				}
				ids = append(ids, id)
			}
			if len(ids) == 0 {
				return Prepared{}, errors.New(strings.Join(lacking, "; "))
			}
		}
		cs, scenarios, warnings, err := matrix(ids, cfg)
		if err != nil {
			return Prepared{}, err
		}
		s, err := bench.NewSession(ctx, cs, scenarios, bench.Options{Benchtime: cfg.Benchtime, Baseline: cfg.Baseline, LiveHeap: cfg.LiveHeap})
		if err != nil {
			return Prepared{}, err
		}
		e := env.Collect(time.Now(), codec.Modules(cs))
		e.LiveHeap = s.LiveHeap().Env()
		return Prepared{Session: s, Env: e, Warnings: warnings, Absent: absent}, nil
	}
}
