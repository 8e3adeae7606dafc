package report

import (
	"slices"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
)

// MergeProcesses returns the run document of docs, the runs of each
// process of a run split over several processes (serbench run
// -processes), in order: the first's environment, codecs and
// scenarios, the cells merged by bench.MergeProcesses, every process's
// warnings once each, and the figures derived from cells (recommendations,
// geomeans, plateaus) left for Analyze. Its errors are
// bench.MergeProcesses's: too few or too many runs, runs of different
// cells.
func MergeProcesses(docs []*Document) (*Document, error) {
	first := docs[0]
	runs := make([][]results.Row, len(docs))
	for i, d := range docs {
		runs[i] = d.Results
	}
	ref := ""
	for _, c := range first.Codecs {
		if c.Kind == codec.Reference {
			ref = c.ID
			break
		}
	}
	results, err := bench.MergeProcesses(runs, first.Baseline, ref, first.Target)
	if err != nil {
		return nil, err
	}
	doc := *first
	doc.Results = results
	doc.Recommendations, doc.Geomeans, doc.Plateaus = nil, nil, nil
	doc.Warnings = nil
	for _, d := range docs {
		for _, w := range d.Warnings {
			if !slices.Contains(doc.Warnings, w) {
				doc.Warnings = append(doc.Warnings, w)
			}
		}
	}
	return &doc, nil
}
