package report_test

import (
	"fmt"

	"github.com/serbench/serbench/report"
)

// Codec and scenario IDs may hold '/', which separates the parts of a
// benchmark name: it is written as '.'.
func ExampleBenchName() {
	fmt.Println(report.BenchName("sonic/default", "corpus/twitter_status", "marshal"))
	c, s, op, err := report.ParseBenchName("BenchmarkCodec/codec=sonic.default/scenario=corpus.twitter_status/op=marshal-2")
	fmt.Println(c, s, op, err)
	// Output:
	// Codec/codec=sonic.default/scenario=corpus.twitter_status/op=marshal
	// sonic/default corpus/twitter_status marshal <nil>
}
