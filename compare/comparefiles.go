package compare

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/results"
)

// ErrEmptyName is returned (wrapped, with the side) by CompareFiles for a
// side that lists an empty file name ("a.json,,b.json").
var ErrEmptyName = errors.New("an empty file name in a list of replicate runs")

// An EnvDiffError is a pair of runs whose environments differ (DiffEnv),
// which CompareFiles refuses under CompareFilesOptions.StrictEnv and
// otherwise lists in CompareSet.EnvDiffs.
type EnvDiffError struct {
	// Old and New name the runs: their file names.
	Old, New string
	Diff     EnvDiff
}

func (e *EnvDiffError) Error() string {
	return fmt.Sprintf("%s and %s differ in %s: runs from different machines or toolchains are not comparable", e.Old, e.New, e.Diff)
}

// CompareFilesOptions configure CompareFiles. The zero value means the
// defaults.
type CompareFilesOptions struct {
	// Alpha and By are CompareOptions'.
	Alpha float64
	By    string
	// StrictEnv makes a pair of runs whose environments differ an error
	// (*EnvDiffError), as serbench compare -max-regression does: a gate
	// must not pass or fail on another machine's speed.
	StrictEnv bool
}

// A CompareSet is what serbench compare prints: each side after the first
// compared with the first.
type CompareSet struct {
	Comparisons []*Comparison
	// Warnings are the documents' own (Document.Warnings), in the order
	// the files were read.
	Warnings []string
	// EnvDiffs are the pairs of runs whose environments differ, compared
	// anyway: the replicate runs of each side against its first, then each
	// new side against the old one.
	EnvDiffs []*EnvDiffError
}

// CompareFiles reads the sides of serbench compare, files written by JSON
// or Benchfmt (ReadFile), and compares every side after the first with
// the first (CompareRuns; each comparison is labelled by the sides' text).
// A side is one file name, or the replicate runs of one build as file
// names separated by commas. Fewer than two sides, an empty file name
// (ErrEmptyName), a file that cannot be read, two sides that share no cell
// and, with opts.StrictEnv, runs whose environments differ
// (*EnvDiffError) are errors; the set returned with an error holds the
// warnings met so far. ctx is checked before each file.
func CompareFiles(ctx context.Context, sides []string, opts CompareFilesOptions) (*CompareSet, error) {
	set := &CompareSet{}
	if len(sides) < 2 {
		return set, fmt.Errorf("report: CompareFiles needs two sides or more (got %d)", len(sides))
	}
	docs := make([][]*results.Run, len(sides))
	for i, side := range sides {
		for _, path := range strings.Split(side, ",") {
			if path == "" {
				return set, fmt.Errorf("%q: %w", side, ErrEmptyName)
			}
			if err := ctx.Err(); err != nil {
				return set, err
			}
			doc, err := results.ReadFile(path)
			if err != nil {
				return set, err
			}
			set.Warnings = append(set.Warnings, doc.Warnings...)
			docs[i] = append(docs[i], doc)
		}
	}
	envDiff := func(a, b string, d *EnvDiff) error {
		if d == nil {
			return nil
		}
		e := &EnvDiffError{Old: a, New: b, Diff: *d}
		if opts.StrictEnv {
			return e
		}
		set.EnvDiffs = append(set.EnvDiffs, e)
		return nil
	}
	for i, side := range docs {
		names := strings.Split(sides[i], ",")
		for j := 1; j < len(side); j++ {
			if err := envDiff(names[0], names[j], DiffEnv(side[0], side[j])); err != nil {
				return set, err
			}
		}
	}
	for i := 1; i < len(docs); i++ {
		c, err := CompareRuns(docs[0], docs[i], CompareOptions{Alpha: opts.Alpha, By: opts.By, OldName: sides[0], NewName: sides[i]})
		if err != nil {
			return set, err
		}
		if err := envDiff(sides[0], sides[i], c.EnvDiff); err != nil {
			return set, err
		}
		if len(c.Rows) == 0 {
			return set, fmt.Errorf("compare: %s and %s share no cell (codec, scenario, op): nothing to compare", sides[0], sides[i])
		}
		set.Comparisons = append(set.Comparisons, c)
	}
	return set, nil
}

// RegressionLines returns one line per regressed cell metric of cs, by
// the rules of Regressions with threshold max: the new side's name, then
// the figure's line (gate.Figure.String: "new.json: codec=cbor ... B/op
// +12.0% (48 → 54, q=0.001), significant and beyond 5%"). A
// negative max is an error.
func RegressionLines(cs []*Comparison, max float64) ([]string, error) {
	return gateLines(cs, max, Regressions)
}

// InconclusiveLines returns one line per cell of cs whose change of time
// is inconclusive at max (Inconclusive): the new side's name, then the
// cell, its change with its interval and why it could not be decided. A
// negative max is an error.
func InconclusiveLines(cs []*Comparison, max float64) ([]string, error) {
	return gateLines(cs, max, Inconclusive)
}

// gateLines is one line per gate.Figure that judge finds in each of cs,
// prefixed by the new side's name.
func gateLines(cs []*Comparison, max float64, judge func(*Comparison, float64) ([]gate.Figure, error)) ([]string, error) {
	var lines []string
	for _, c := range cs {
		rs, err := judge(c, max)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			lines = append(lines, c.NewName+": "+r.String())
		}
	}
	return lines, nil
}
