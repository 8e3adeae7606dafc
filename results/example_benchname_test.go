package results_test

import (
	"fmt"

	"github.com/serbench/serbench/results"
)

// Codec and scenario IDs may hold '/', which separates the parts of a
// benchmark name: it is written as '.'.
func ExampleBenchName() {
	fmt.Println(results.BenchName("sonic/default", "corpus/twitter_status", "marshal"))
	c, s, op, err := results.ParseBenchName("BenchmarkCodec/codec=sonic.default/scenario=corpus.twitter_status/op=marshal-2")
	fmt.Println(c, s, op, err)
	// Output:
	// Codec/codec=sonic.default/scenario=corpus.twitter_status/op=marshal
	// sonic/default corpus/twitter_status marshal <nil>
}
