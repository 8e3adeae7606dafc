package ab_test

import (
	"fmt"
	"os"

	"github.com/serbench/serbench/ab"
)

// A Result as Run returns it, here written by hand: one benchmark that
// allocates at head and takes about 8% longer in each of six rounds.
func Example() {
	opts, err := ab.Options{Base: "main", Rounds: 6}.Resolved()
	if err != nil {
		fmt.Println(err)
		return
	}
	res := &ab.Result{
		Options: opts,
		Base:    ab.Revision{Name: "main", Commit: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"},
		Head:    ab.Revision{Commit: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", WorkingTree: true},
		Rounds:  6,
		Benchmarks: []ab.Benchmark{{
			Name:   "Encode-8",
			Ratios: []float64{1.08, 1.07, 1.09, 1.08, 1.08, 1.06},
			BaseNs: 1020, HeadNs: 1102,
			Ratio: 1.08, RatioLo: 1.06, RatioHi: 1.09,
			P: 2.0 / 64, Q: 2.0 / 64,
			Mem: true, BaseBytes: 48, HeadBytes: 96, BaseAllocs: 1, HeadAllocs: 2,
			BytesUp: true, AllocsUp: true,
		}},
	}
	for _, r := range ab.Regressions(res, 0.05) {
		fmt.Println("regression:", r)
	}
	if err := ab.Write(os.Stdout, "markdown", res); err != nil {
		fmt.Println(err)
	}
	// Output:
	// regression: Encode-8: ns/op +8.0% [+6.0%, +9.0%] (1,020 → 1,102, q=0.031), the interval lies beyond 5%
	// regression: Encode-8: B/op 48 → 96, higher in every one of 6 rounds
	// regression: Encode-8: allocs/op 1 → 2, higher in every one of 6 rounds
	// base: main (1a2b3c4d5e6f); head: the working tree (uncommitted changes included) at 1a2b3c4d5e6f; 6 rounds (A B, B A, ...) of -benchtime 20ms
	//
	// | benchmark | base ns/op | head ns/op | change | 95% interval | resolves | p | q | B/op | allocs/op |
	// |---|---|---|---|---|---|---|---|---|---|
	// | Encode-8 | 1,020 | 1,102 | +8.0% | [+6.0%, +9.0%] | ±2.0% | 0.031 | 0.031 | 48 → 96 ! | 1 → 2 ! |
	//
	// ns/op, B/op, allocs/op: medians over the rounds; change: the median over the rounds of head ns/op / base ns/op, minus 1, and the 95% distribution-free interval of that median; resolves: the smallest change this run tells from none, the interval's larger half-width; p: exact sign test over the rounds; q: p adjusted over the 1 benchmark (benjamini-hochberg); ~: q > 0.05; ~ (correction): the interval excludes 0, but the correction over the 1 benchmark left q > 0.05; !: higher at head in every round
}
