package report

import (
	_ "embed"
	"html/template"
	"io"
	"strings"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/probe"
)

// FidelityHTML writes doc as one self-contained HTML page in the style of
// HTML's results page (the same inline style sheet; nothing is fetched):
// the matrix with each cell coloured by its status, the notes, the codecs
// that could take no probe, the legend and the environment.
func FidelityHTML(w io.Writer, doc *FidelityDocument) error {
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
	Doc       *FidelityDocument
	Env       *env.Env
	Header    []string
	Rows      [][]fidelityHTMLCell
	Notes     []string
	NAReasons []string
	NAHeading string
	Legend    []string
}

func statusClass(s probe.Status) string {
	switch s {
	case probe.Kept:
		return "kept"
	case probe.Changed:
		return "changed"
	case probe.Error:
		return "error"
	case probe.NA:
		return "na"
	}
	return ""
}

// pageStyle is the style sheet of html.tmpl, shared so that the two pages
// look alike without a second copy to keep in step.
var pageStyle = func() template.CSS {
	_, after, _ := strings.Cut(htmlTemplate, "<style>")
	css, _, _ := strings.Cut(after, "</style>")
	return template.CSS(css)
}()

//go:embed fidelity.tmpl
var fidelityTemplateText string

var fidelityTemplate = template.Must(template.New("fidelity").Funcs(template.FuncMap{
	"style": func() template.CSS { return pageStyle },
	"inc":   func(i int) int { return i + 1 },
}).Parse(fidelityTemplateText + envTemplate))
