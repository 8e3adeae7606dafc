package results

import (
	"io"

	"github.com/serbench/serbench/document"
)

// WriteJSON writes doc as one indented JSON object following the serbench/v1
// contract of docs/reference.md, "JSON documents". It only encodes: the
// derived figures (each row's Derived, Recommendations, Geomeans,
// Plateaus) are what the run's constructor put there. The output's
// schema is Schema where doc.Schema is empty, and its results [] where
// doc.Results is nil.
func WriteJSON(w io.Writer, doc *Run) error {
	d := *doc
	if d.Schema == "" {
		d.Schema = Schema
	}
	if d.Results == nil {
		d.Results = []Row{}
	}
	return document.WriteJSON(w, "results", "  ", &d)
}

// Analyze returns a copy of doc with the run's own figures, each only
// where doc lacks it: Recommendations (Recommend), Plateaus (Plateaus)
// and Geomeans (Geomeans), from the rows as they are; it leaves the rows
// and their Derived figures alone (the copy shares doc's rows). NewRun,
// MergeProcesses and Read return runs analysed already, their rows
// derived; Analyze is for a run assembled by hand (a test's). doc is not
// changed.
func Analyze(doc *Run) *Run {
	d := *doc
	d.analyze()
	return &d
}

// analyze is Analyze in place, for a run being built.
func (doc *Run) analyze() {
	if doc.Recommendations == nil {
		doc.Recommendations = Recommend(doc)
	}
	if doc.Plateaus == nil {
		doc.Plateaus = Plateaus(doc)
	}
	if doc.Geomeans == nil {
		doc.Geomeans = Geomeans(doc)
	}
}
