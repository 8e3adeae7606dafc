package report

import (
	"encoding/json"
	"io"

	"github.com/serbench/serbench/bench"
)

// JSON writes doc as one indented JSON object following the serbench/v1
// contract of docs/reference.md, "JSON documents". doc.Schema is set to Schema if empty.
func JSON(w io.Writer, doc *Document) error {
	d := *doc
	if d.Schema == "" {
		d.Schema = Schema
	}
	if d.Results == nil {
		d.Results = []bench.Result{}
	}
	if d.Recommendations == nil {
		d.Recommendations = Recommend(&d)
	}
	if d.Plateaus == nil {
		d.Plateaus = Plateaus(&d)
	}
	if d.Geomeans == nil {
		d.Geomeans = Geomeans(&d)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&d)
}
