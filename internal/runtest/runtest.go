// Package runtest holds made-up runs for the tests of the packages that
// read runs (results, which derives and reads them, and report, which
// renders them), so that both test one run instead of two copies of it.
// Its figures are invented: they test code, not codecs.
package runtest

import (
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// Sweep is a run of three codecs on a three-point size sweep of
// user-event (1 KiB, 16 KiB, 1 MiB), marshal and unmarshal, one sample a
// cell: encoding/json's MB/s stops rising at 16 KiB, "fast" keeps rising
// (no plateau) and "falls" peaks at 16 KiB and falls. It is not analysed
// (no plateaus yet): results.Analyze or a writer's reader adds them.
func Sweep() *results.Run {
	doc := &results.Run{Baseline: "encoding/json"}
	sizes := []int64{1 << 10, 16 << 10, 1 << 20}
	mb := map[string][]float64{"encoding/json": {100, 190, 200}, "fast": {300, 700, 1500}, "falls": {300, 700, 500}}
	for i, n := range sizes {
		id := "sweep/user-event@" + scenario.SizeLabel(n)
		doc.Scenarios = append(doc.Scenarios, results.ScenarioInfo{ID: id, Type: "*scenario.UserEvent",
			Sweep: &scenario.SweepPoint{Family: "user-event", TargetBytes: n, JSONBytes: n + 7, Elements: i + 1}})
		for _, c := range []string{"encoding/json", "fast", "falls"} {
			for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
				size := int(n)
				ns := float64(size) / mb[c][i] * 1e3
				doc.Results = append(doc.Results, results.Row{Codec: c, Scenario: id, Op: op, NsPerOp: ns, MBPerS: mb[c][i],
					SizeBytes: size, OK: true, Samples: []float64{ns}, Iterations: 1})
			}
		}
	}
	return doc
}
