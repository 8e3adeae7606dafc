package serbench

import (
	"fmt"
	"time"

	"github.com/serbench/serbench/derive"
)

// HintBudget is how long Benchmark times proto.Marshal for each
// schema-tightening hint, both messages together: 20 ms (derive's
// Hints.TimeMarshal). Check times nothing.
const HintBudget = 20 * time.Millisecond

// hintsHeader opens the hints Check and Benchmark log.
const hintsHeader = "schema-tightening hints for %T, measured on your sample: protobuf bytes (protobuf/derived, dynamicpb) and Avro bytes (avro/derived) of the whole sample before → after changing only that field to the suggested type"

// hintsText is the schema-tightening hints of sample (a value sampleOf
// accepted) as a table under a header, for Check and Benchmark to log
// (from their own line); with budget > 0 it also measures marshal ns/op
// for budget per hint. "" when there are no hints or when the protobuf
// schema cannot be derived from the type (the protobuf/derived row says
// why).
func hintsText(sample any, budget time.Duration, o derive.Options) string {
	hs, err := o.FindHints(sample)
	if err != nil || len(hs) == 0 {
		return ""
	}
	head := fmt.Sprintf(hintsHeader, sample)
	if budget > 0 {
		if err := hs.TimeMarshal(budget); err != nil {
			return fmt.Sprintf("serbench: schema-tightening hints: %v", err)
		}
		head += fmt.Sprintf("; marshal ns/op from a %v loop per field on this machine, a direction, not a benchmark", budget)
	}
	return head + ":\n" + hs.String()
}
