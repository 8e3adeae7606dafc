package document

import "html/template"

// Calculator is the capacity calculator of the HTML page: package plan's
// model over a run's figures, run in the browser. plan.NewCalculator
// builds it from a run, and report.HTML draws it; it is here so that
// neither imports the other.
type Calculator struct {
	// Scenarios names the scenarios with options, in run order.
	Scenarios []string
	// Options is the JSON of one []plan.Option per scenario, in
	// Scenarios order.
	Options template.JS
	// Script is the model's JavaScript (plan.CalcJS).
	Script template.JS
	// Cores is the server cores the form starts with: the run's
	// GOMAXPROCS, at least 1.
	Cores int
}
