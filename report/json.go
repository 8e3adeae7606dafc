package report

import (
	"io"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// JSON writes doc as one indented JSON object following the serbench/v1
// contract of docs/reference.md, "JSON documents". It only encodes: the
// derived figures (Recommendations, Geomeans, Plateaus) are what
// Document.Analyze put there when the document was built. The output's
// schema is Schema where doc.Schema is empty, and its results [] where
// doc.Results is nil.
func JSON(w io.Writer, doc *Document) error {
	d := *doc
	if d.Schema == "" {
		d.Schema = Schema
	}
	if d.Results == nil {
		d.Results = []results.Row{}
	}
	return document.WriteJSON(w, "report", "  ", &d)
}

// Analyze fills in the figures doc's results imply, each only where it is
// empty: Recommendations (Recommend), Plateaus (Plateaus) and Geomeans
// (Geomeans). Call it once the document is complete (serbench run does
// before writing; Read does for what it reads), so that writing is only
// encoding.
func (doc *Document) Analyze() {
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
