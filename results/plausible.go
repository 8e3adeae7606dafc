package results

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/serbench/serbench/document"
)

// The limits of a plausible run: Read refuses a document outside them with
// an *ImplausibleError, so that every reader (show, compare, the archive,
// the explorer) gets the same check.
const (
	// MaxClockSkew is how far in the future a run's start (env.started)
	// may lie, for clocks that are a little ahead: one hour. A run dated
	// later would sort after every real run for good (the explorer's
	// default view is the latest run).
	MaxClockSkew = time.Hour
	// MaxNsPerOp bounds ns/op and every ns/op sample: 1e15 ns, about 11.6
	// days per operation.
	MaxNsPerOp = 1e15
	// MaxAllocsPerOp bounds allocs/op: 1e12, beyond any heap.
	MaxAllocsPerOp = 1e12
	// MaxBytesPerOp bounds B/op and the encoded size: 1 PiB.
	MaxBytesPerOp = 1 << 50
	// MaxPRounding is how far past 1 a p-value (speedup_p) may lie and
	// still be read: 1e-9. The U-test's sum could round a p-value of 1 to
	// 1.0000000000000002 in documents written before serbench clamped it
	// (stats.ClampP); Read accepts such a value and clamps it to 1, and
	// refuses only a p-value no test can give.
	MaxPRounding = 1e-9
)

// ErrImplausible is what every *ImplausibleError matches with errors.Is.
var ErrImplausible = errors.New("implausible run")

// ImplausibleError names the first figure of a results document that no
// run can have: a start in the future beyond MaxClockSkew, a negative or
// non-finite figure, or one beyond the limits above (a p-value beyond 1 +
// MaxPRounding).
type ImplausibleError struct {
	// File is the document's name as given to Read.
	File string
	// Cell names the cell ("codec=sonic scenario=sse-event op=marshal"),
	// "" for a field of the environment.
	Cell string
	// Field is the JSON field ("ns_per_op", "samples", "env.started").
	Field string
	// Value is the offending value as text, Want the accepted range.
	Value, Want string
}

func (e *ImplausibleError) Error() string {
	where := "results: "
	if e.File != "" {
		where += e.File + ": "
	}
	if e.Cell != "" {
		where += e.Cell + ": "
	}
	return fmt.Sprintf("%simplausible run: %s %s (want %s)", where, e.Field, e.Value, e.Want)
}

// Is makes errors.Is(err, ErrImplausible) true.
func (e *ImplausibleError) Is(target error) bool { return target == ErrImplausible }

// now is the clock the start-time check reads; tests replace it.
var now = time.Now

// checkRange returns an *ImplausibleError when v is not finite or lies
// outside [0, hi].
func checkRange(name, cell, field string, v, hi float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > hi {
		return &ImplausibleError{File: name, Cell: cell, Field: field, Value: fmt.Sprint(v), Want: fmt.Sprintf("a finite figure in [0, %g]", hi)}
	}
	return nil
}

// checkAll is checkRange over vs.
func checkAll(name, cell, field string, vs []float64, hi float64) error {
	for _, v := range vs {
		if err := checkRange(name, cell, field, v, hi); err != nil {
			return err
		}
	}
	return nil
}

// checkPlausible checks doc, read from name, against the limits above
// (the clock read once, by now).
func checkPlausible(doc *Run, name string) error {
	if s := doc.Env.Started; !s.IsZero() && s.After(now().Add(MaxClockSkew)) {
		return &ImplausibleError{File: name, Field: "env.started", Value: s.UTC().Format(time.RFC3339),
			Want: fmt.Sprintf("a start no later than %v from now", MaxClockSkew)}
	}
	if n := doc.Env.Noise; n != nil {
		if err := checkRange(name, "", "env.noise.probe_ns", n.ProbeNs, math.MaxFloat64); err != nil {
			return err
		}
		if err := checkRange(name, "", "env.noise.spread", n.Spread, math.MaxFloat64); err != nil {
			return err
		}
	}
	for _, r := range doc.Results {
		if err := checkResult(name, r); err != nil {
			return err
		}
	}
	return nil
}

// checkResult checks one cell's figures.
func checkResult(name string, r Row) error {
	cell := cellLabel(r.Codec, r.Scenario, r.Op)
	for _, f := range []struct {
		field string
		v, hi float64
	}{
		{"ns_per_op", r.NsPerOp, MaxNsPerOp},
		{"ns_per_op_lo", r.NsPerOpLo, MaxNsPerOp},
		{"ns_per_op_hi", r.NsPerOpHi, MaxNsPerOp},
		{"bytes_per_op", float64(r.BytesPerOp), MaxBytesPerOp},
		{"allocs_per_op", float64(r.AllocsPerOp), MaxAllocsPerOp},
		{"size_bytes", float64(r.SizeBytes), MaxBytesPerOp},
		{"compressed_bytes", float64(r.CompressedBytes), MaxBytesPerOp},
		{"mb_per_s", r.MBPerS, math.MaxFloat64},
		{"speedup", r.Speedup, math.MaxFloat64},
		{"speedup_lo", r.SpeedupLo, math.MaxFloat64},
		{"speedup_hi", r.SpeedupHi, math.MaxFloat64},
		{"speedup_p", r.SpeedupP, 1 + MaxPRounding},
		{"iterations", float64(r.Iterations), math.MaxFloat64},
		{"peak_heap_bytes", float64(r.PeakHeapBytes), math.MaxFloat64},
	} {
		if err := checkRange(name, cell, f.field, f.v, f.hi); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		field string
		vs    []float64
		hi    float64
	}{
		{"samples", r.Samples, MaxNsPerOp},
		{"sample_bytes", r.SampleBytes, MaxBytesPerOp},
		{"sample_allocs", r.SampleAllocs, MaxAllocsPerOp},
		{"pair_ratios", r.PairRatios, math.MaxFloat64},
	} {
		if err := checkAll(name, cell, f.field, f.vs, f.hi); err != nil {
			return err
		}
	}
	return nil
}

// cellLabel names a cell in an error, as the regression gate's lines do;
// the names go through TerminalText.
func cellLabel(codec, scenario, op string) string {
	return document.TerminalText(fmt.Sprintf("codec=%s scenario=%s op=%s", codec, scenario, op))
}

// check checks a benchmark-text cell's values before finish turns them
// into integers (1e30 allocs/op would wrap negative).
func (c *cellAcc) check(name string) error {
	cell := cellLabel(c.res.Codec, c.res.Scenario, c.res.Op)
	for _, f := range []struct {
		unit string
		vs   []float64
		hi   float64
	}{
		{"ns/op", c.res.Samples, MaxNsPerOp},
		{"MB/s", c.mb, math.MaxFloat64},
		{"B/op", c.bytes, MaxBytesPerOp},
		{"allocs/op", c.allocs, MaxAllocsPerOp},
		{UnitSize, c.sz, MaxBytesPerOp},
		{UnitCompressed, c.csz, MaxBytesPerOp},
		{UnitPairSpeedup, c.res.PairRatios, math.MaxFloat64},
	} {
		if err := checkAll(name, cell, f.unit, f.vs, f.hi); err != nil {
			return err
		}
	}
	return nil
}
