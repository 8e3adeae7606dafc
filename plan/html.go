package plan

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
)

// calcJS is the calculator's JavaScript: planCompute(inputs, options),
// the model of Compute over the JSON of Inputs and []Option, and
// planRender(form, tbody, status, options, transport), which reads a
// form's inputs and writes the ranked rows. Plain ES5, no dependencies.
//
//go:embed calc.js
var calcJS string

//go:embed plan.tmpl
var planTmpl string

var htmlTmpl = template.Must(template.New("plan").Funcs(template.FuncMap{
	"num":   num,
	"inc":   func(i int) int { return i + 1 },
	"money": money,
	"mb":    func(x float64) string { return num(x / 1e6) },
	"join":  strings.Join,
	"ratio": func(m, p float64) string { return num(ratio(m, p)) },
	// percent writes a ratio in [0,1] as a percentage, one decimal.
	"percent": func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
}).Parse(planTmpl))

// WriteHTML writes d as one self-contained HTML page: per scenario the
// ranked table, the -verify comparison, and a calculator whose inputs
// (rate, fan-out, cores, bandwidth, budgets, prices) re-rank the measured
// options in the browser with the same model (calc.js, plain inline
// JavaScript, no network).
func WriteHTML(w io.Writer, d Document) error {
	data, err := json.Marshal(d.Plans)
	if err != nil {
		return fmt.Errorf("plan: write html: %w", err)
	}
	err = htmlTmpl.Execute(w, struct {
		Document
		Data template.JS
		Calc template.JS
	}{d, template.JS(data), template.JS(calcJS)})
	if err != nil {
		return fmt.Errorf("plan: write html: %w", err)
	}
	return nil
}
