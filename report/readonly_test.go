package report_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// TestWritersDoNotChangeRun passes a run through every function that takes
// a built run (each format of Write, results' own writers, the
// calculator, the comparisons) and checks that it comes out equal to a
// second run built the same way and never passed anywhere: a run is
// complete when built, and what reads it only reads.
func TestWritersDoNotChangeRun(t *testing.T) {
	for name, build := range map[string]func() *results.Run{"fixture": fixture, "adaptive": adaptiveFixture, "compare": newFixture} {
		t.Run(name, func(t *testing.T) {
			want, doc, other := results.Analyze(build()), results.Analyze(build()), results.Analyze(build())
			if !reflect.DeepEqual(want, doc) {
				t.Fatal("the fixture is not deterministic: the check below would mean nothing")
			}
			calc, err := plan.NewCalculator(doc)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			for _, format := range report.Formats {
				if err := report.Write(&buf, format, doc, calc); err != nil {
					t.Fatalf("%s: %v", format, err)
				}
			}
			if err := results.WriteJSON(&buf, doc); err != nil {
				t.Fatal(err)
			}
			if err := results.WriteBenchfmt(&buf, doc); err != nil {
				t.Fatal(err)
			}
			report.BMFOf(doc)
			compare.DiffEnv(doc, other)
			if _, err := compare.Compare(doc, other, compare.CompareOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := compare.CompareRuns([]*results.Run{doc, other}, []*results.Run{other, doc}, compare.CompareOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := results.MergeProcesses([]*results.Run{doc, other}); err != nil {
				t.Fatal(err)
			}
			results.Analyze(doc)
			if !reflect.DeepEqual(want, doc) {
				t.Error("a writer, a comparison, the calculator or the merge changed the run it was given")
			}
			if !reflect.DeepEqual(want, other) {
				t.Error("a comparison or the merge changed the run it was given")
			}
		})
	}
}
