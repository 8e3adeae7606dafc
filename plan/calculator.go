package plan

import (
	"encoding/json"
	"fmt"
	"html/template"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// NewCalculator returns the capacity calculator of doc's HTML page
// (report.HTML's calc): per scenario in run order, the
// options FromResults builds from doc's results with doc's compressors,
// at the run's GOMAXPROCS (at least 1) as the server cores. It returns
// nil when no scenario has an option without an error (nothing to rank),
// and an error only when the options cannot be written as JSON.
func NewCalculator(doc *results.Run) (*document.Calculator, error) {
	var comps []string
	for _, c := range doc.Compressors {
		comps = append(comps, c.ID)
	}
	cores := max(doc.Env.GOMAXPROCS, 1)
	calc := &document.Calculator{Script: template.JS(calcJS), Cores: cores}
	var all [][]Option
	usable := false
	seen := map[string]bool{}
	for _, r := range doc.Results {
		if seen[r.Scenario] {
			continue
		}
		seen[r.Scenario] = true
		opts := FromResults(doc.Results, r.Scenario, comps, float64(cores))
		if len(opts) == 0 {
			continue
		}
		for _, o := range opts {
			usable = usable || o.Error == ""
		}
		calc.Scenarios, all = append(calc.Scenarios, r.Scenario), append(all, opts)
	}
	if !usable {
		return nil, nil
	}
	data, err := json.Marshal(all)
	if err != nil {
		return nil, fmt.Errorf("plan: calculator data: %w", err)
	}
	calc.Options = template.JS(data)
	return calc, nil
}
