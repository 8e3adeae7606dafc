package document

import (
	"encoding/json"
	"io"
)

// BMF is a document in the Bencher Metric Format: benchmark name → measure
// slug → metric. It is the JSON shape Bencher's "json" adapter reads
// (https://bencher.dev/docs/reference/bencher-metric-format/): an object
// keyed by benchmark, each an object keyed by measure, each with a required
// "value" and optional "lower_value" and "upper_value" numbers.
type BMF map[string]map[string]BMFMetric

// BMFMetric is one measure's value of one benchmark, with its interval
// where one is known.
type BMFMetric struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value,omitempty"`
	Upper *float64 `json:"upper_value,omitempty"`
}

// Measure slugs serbench writes in BMF. "latency" is Bencher's built-in
// Latency measure (ns); the others are created by Bencher on first upload,
// named by their slug.
const (
	BMFLatency     = "latency"            // median ns/op, with its 95% interval
	BMFBytesPerOp  = "bytes-per-op"       // median B/op
	BMFAllocsPerOp = "allocs-per-op"      // median allocs/op
	BMFSize        = "encoded-size"       // encoded bytes (marshal cells only)
	BMFChange      = "latency-change"     // compare only: compare.CompareRow.Change in percent (positive: slower)
	BMFResolution  = "latency-resolution" // compare only: compare.CompareRow.Resolution in percent
)

// WriteBMF writes b as indented JSON (keys sorted, so the output is
// deterministic).
func WriteBMF(w io.Writer, b BMF) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}
