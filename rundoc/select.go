package rundoc

import (
	"errors"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/scenario"
)

// Selection names a run's matrix, as serbench run's -codecs, -scenarios
// and -corpus do.
type Selection struct {
	// Registry holds the codecs to choose from.
	Registry *codec.Registry
	// Codecs are the codec IDs of the selection (codec.Registry.Select:
	// groups already resolved, as -codecs does when it is parsed); nil:
	// the registry's default set.
	Codecs []string
	// Scenarios are scenario IDs and groups (scenario.Pick) among the
	// built-in scenarios, Corpus's and the annotation workloads; none:
	// every built-in and Corpus scenario.
	Scenarios []string
	// Corpus is a user's corpus file or folder (corpus.All); "": none.
	Corpus string
	// Baseline is the codec every speed-up is measured against, put first
	// when Codecs lacks it (WithBaseline).
	Baseline string
	// Sizes are the encoding/json sizes, in bytes, of size sweep points
	// (scenario.Sweep; serbench run -sizes, read by scenario.ParseSizes) to
	// measure: after the scenarios that Scenarios names, or instead of
	// every scenario when it names none. A size out of range is a
	// *ScenarioError.
	Sizes []int64
}

// ResolveCodecs resolves run's -codecs names (codec IDs and groups) into
// the codec IDs of the selection, in order, without repeats, as
// Registry.Resolve does, except that a codec serbench has and this build
// lacks (Registry.Absent) stays in the selection, in its place: a build of
// run -go may have it, and without -go Selection.Matrix fails with the
// reason. The error is the registry's for an unknown name.
func ResolveCodecs(reg *codec.Registry, names []string) ([]string, error) {
	var present []string
	for _, n := range names {
		if _, absent := reg.Absent(n); !absent {
			present = append(present, n)
		}
	}
	if len(present) > 0 {
		if _, err := reg.Resolve(present); err != nil {
			return nil, err
		}
	}
	var ids []string
	seen := map[string]bool{}
	for _, n := range names {
		add := []string{n}
		if _, absent := reg.Absent(n); !absent {
			cs, _ := reg.Resolve([]string{n}) // checked above
			add = add[:0]
			for _, c := range cs {
				add = append(add, c.Info().ID)
			}
		}
		for _, id := range add {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

// ScenarioError is a Selection.Scenarios name that is no scenario or group.
type ScenarioError struct{ Err error }

func (e *ScenarioError) Error() string { return e.Err.Error() }
func (e *ScenarioError) Unwrap() error { return e.Err }

// CorpusError is a Selection.Corpus that cannot be read (corpus.All's
// error).
type CorpusError struct{ Err error }

func (e *CorpusError) Error() string { return "rundoc: " + e.Err.Error() }
func (e *CorpusError) Unwrap() error { return e.Err }

// Matrix returns the codecs and scenarios s names, in run order, and the
// warnings of choosing them: corpus.All's and the codecs' own
// (CodecWarnings). Errors are a nil Registry, the registry's for a codec
// ID, a *CorpusError and a *ScenarioError.
func (s Selection) Matrix() ([]codec.Codec, []scenario.Scenario, []string, error) {
	if s.Registry == nil {
		return nil, nil, nil, errors.New("rundoc: Selection.Registry is nil")
	}
	codecs := s.Registry.Default()
	if s.Codecs != nil {
		var err error
		if codecs, err = s.Registry.Select(s.Codecs); err != nil {
			return nil, nil, nil, err
		}
	}
	codecs = WithBaseline(s.Registry, codecs, s.Baseline)
	scenarios, warnings, err := corpus.All(s.Corpus, corpus.Options{})
	if err != nil {
		return nil, nil, nil, &CorpusError{err}
	}
	if scenarios, err = scenario.Pick(scenarios, s.Scenarios); err != nil {
		return nil, nil, nil, &ScenarioError{err}
	}
	if s.Sizes != nil {
		sweep, err := scenario.Sweep(s.Sizes)
		if err != nil {
			return nil, nil, nil, &ScenarioError{err}
		}
		if len(s.Scenarios) == 0 {
			scenarios = nil
		}
		scenarios = append(scenarios, sweep...)
	}
	return codecs, scenarios, append(warnings, CodecWarnings(codecs)...), nil
}
