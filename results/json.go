package results

import (
	"io"

	"github.com/serbench/serbench/document"
)

// WriteJSON writes doc as one indented JSON object following the serbench/v1
// contract of docs/reference.md, "JSON documents". It only encodes: the
// derived figures (Recommendations, Geomeans, Plateaus) are what
// Analyze put there when the document was built. The output's
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

// Analyze returns a copy of doc with the figures its rows imply, each
// only where doc lacks it: Recommendations (Recommend), Plateaus
// (Plateaus) and Geomeans (Geomeans). NewRun, MergeProcesses and Read
// return runs analysed already; Analyze is for a run assembled by hand (a
// test's). doc is not changed.
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
