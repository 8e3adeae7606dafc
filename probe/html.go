package probe

import (
	_ "embed"
	"html/template"
	"io"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
)

// HTML writes doc as one self-contained HTML page in the style of
// report.HTML's results page (the same inline style sheet; nothing is fetched):
// the matrix with each cell coloured by its status, the notes, the codecs
// that could take no probe, the legend and the environment.
func HTML(w io.Writer, doc *Document) error {
	m := buildFidelityMatrix(doc, true)
	data := fidelityPage{Doc: doc, Env: doc.Env, Header: m.Header, Notes: m.notes, NAReasons: m.naReasons, NAHeading: naHeading, Legend: fidelityLegend()}
	fixed := len(m.Header) - m.codecColumns
	for i, r := range m.Rows {
		var row []fidelityHTMLCell
		for j, c := range r {
			cell := fidelityHTMLCell{Text: c}
			if j >= fixed {
				cell.Class = statusClass(m.status[i][j-fixed])
			}
			row = append(row, cell)
		}
		data.Rows = append(data.Rows, row)
	}
	return fidelityTemplate.Execute(w, data)
}

type fidelityHTMLCell struct{ Text, Class string }

type fidelityPage struct {
	Doc       *Document
	Env       *env.Env
	Header    []string
	Rows      [][]fidelityHTMLCell
	Notes     []string
	NAReasons []string
	NAHeading string
	Legend    []string
}

func statusClass(s Status) string {
	switch s {
	case Kept:
		return "kept"
	case Changed:
		return "changed"
	case Error:
		return "error"
	case NA:
		return "na"
	}
	return ""
}

//go:embed fidelity.tmpl
var fidelityTemplateText string

var fidelityTemplate = template.Must(template.New("fidelity").Funcs(template.FuncMap{
	"style": document.PageStyle,
	"inc":   func(i int) int { return i + 1 },
}).Parse(fidelityTemplateText + document.EnvTemplate()))
