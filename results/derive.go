package results

import "github.com/serbench/serbench/stats"

// The figures a run's rows imply: the statistics themselves are package
// stats's, so that the runner, a file read back and the command line
// compute them one way.

// DefaultReference is the ID of the reference row (codec.Reference)
// serbench ships, memmove: the floor of FloorRatio.
const DefaultReference = "memmove"

// AddFloorRatios fills FloorRatio of every timed result from the reference
// row ref's median on the same scenario and op; results without one are
// left alone. An empty ref does nothing.
func AddFloorRatios(rows []Row, ref string) {
	if ref == "" {
		return
	}
	type key struct{ scenario, op string }
	floor := map[key]float64{}
	for _, r := range rows {
		if r.Codec == ref && r.Timed() && r.NsPerOp > 0 {
			floor[key{r.Scenario, r.Op}] = r.NsPerOp
		}
	}
	for i := range rows {
		r := &rows[i]
		if f, ok := floor[key{r.Scenario, r.Op}]; ok && r.Timed() {
			r.FloorRatio = r.NsPerOp / f
		}
	}
}

// AddSpeedups fills Speedup, SpeedupP and SpeedupLo..SpeedupHi of every
// timed result that baseline timed on the same scenario and op: from the
// result's PairRatios when it has them (stats.PairedChange: median, its
// interval, sign test), otherwise from the two sets of samples
// (stats.CompareSamples: ratio of medians, bootstrap interval,
// Mann-Whitney U-test). It reports whether baseline has any
// timed result.
func AddSpeedups(rows []Row, baseline string) bool {
	type key struct{ scenario, op string }
	base := map[key]int{}
	for i, r := range rows {
		if r.Codec == baseline && r.Timed() {
			base[key{r.Scenario, r.Op}] = i
		}
	}
	for i := range rows {
		r := &rows[i]
		bi, ok := base[key{r.Scenario, r.Op}]
		if !ok || !r.Timed() || r.NsPerOp == 0 {
			continue
		}
		b := rows[bi]
		r.Speedup = b.NsPerOp / r.NsPerOp
		if bi == i {
			r.SpeedupP = 1
			continue
		}
		if len(r.PairRatios) > 0 {
			r.Speedup, r.SpeedupLo, r.SpeedupHi, r.SpeedupP = stats.PairedChange(r.PairRatios)
			continue
		}
		cmp := stats.CompareSamples(b.Samples, r.Samples)
		r.SpeedupP, r.SpeedupLo, r.SpeedupHi = cmp.P, cmp.Lo, cmp.Hi
	}
	return len(base) > 0
}

// AddRegimes fills Regimes of every timed result that has none from its
// Samples (stats.DetectRegimes; documents written before serbench
// detected regimes have none).
func AddRegimes(rows []Row) {
	for i := range rows {
		if r := &rows[i]; r.Timed() && r.Regimes == nil {
			r.Regimes = stats.DetectRegimes(r.Samples)
		}
	}
}

// AddJSONRatios sets JSONRatio on the compression results of results
// (those with CompressedBytes): compressed bytes over the baseline codec's
// marshal SizeBytes on the same scenario, left 0 where the baseline has
// none.
func AddJSONRatios(rows []Row, baseline string) {
	base := map[string]int{}
	for _, r := range rows {
		if r.Codec == baseline && r.Op == OpMarshal && r.SizeBytes > 0 {
			base[r.Scenario] = r.SizeBytes
		}
	}
	for i := range rows {
		r := &rows[i]
		if n := base[r.Scenario]; n > 0 && r.CompressedBytes > 0 {
			r.JSONRatio = float64(r.CompressedBytes) / float64(n)
		}
	}
}

// DefaultBaseline is the codec speed-ups are relative to where a run names
// no other (bench.Options.Baseline), and in a benchmark file read back:
// encoding/json.
const DefaultBaseline = "encoding/json"
