package ab

import (
	"strings"
	"time"

	"github.com/serbench/serbench/stats"
	"github.com/serbench/serbench/verdict"
)

// batchRunner runs rounds from up to to (Run's rounds), each invocation
// reporting progress against total invocations; names, when not nil,
// are the only benchmarks the rounds need (benchUnion selects them).
type batchRunner func(from, to, total int, names []string) error

// sequential goes on from the first opts.Rounds rounds in outs (base's
// outputs, then head's), begun at start, as Options.Budget says: while a
// benchmark is inconclusive and more rounds fit in the budget at the pace
// of the latest batch, more rounds (run by more) of only the benchmarks
// still undecided, opts.Rounds at a time; each look judged by
// analyzeLooks, after which told gets the number of benchmarks decided so
// far. The plan the alpha spending is over is the most rounds the budget
// holds at the first batch's pace. The last batch takes all that the
// budget still holds: it is the one that would reach the plan, or after
// which less than half a batch would fit (later batches, of fewer
// benchmarks, run faster than the plan assumed); it runs in parts of
// opts.Rounds, each while the budget holds one more at the latest pace,
// with one look after them all. The look after it, or
// any look after which no batch of half of opts.Rounds fits, is the last
// and spends all of the error rate that the looks before it left
// (stats.FinalLookConfidence).
func sequential(opts Options, outs [][][]byte, start time.Time, more batchRunner, told func(decided int)) (*Result, error) {
	pace := time.Since(start) / time.Duration(opts.Rounds)
	plan := opts.Rounds
	if pace > 0 {
		plan = max(opts.Rounds, min(MaxRounds, int(opts.Budget/pace)))
	}
	least := max(opts.Rounds/2&^1, 2) // the smallest batch worth a look
	// fits is how many more rounds (an even number: A B and B A) the
	// budget holds after n at the latest pace, up to MaxRounds in all.
	fits := func(n int) int {
		k := MaxRounds - n
		if pace > 0 {
			k = min(k, int((opts.Budget-time.Since(start))/pace))
		}
		return max(k, 0) &^ 1
	}
	looks := []int{opts.Rounds}
	final := false // the batch just run took all that was left
	for {
		n := looks[len(looks)-1]
		left := fits(n)
		last := final || n >= plan || left < least
		res, bought, err := analyzeLooks(opts, outs[0], outs[1], looks, plan, last)
		if err != nil {
			return nil, err
		}
		var open []string
		for _, b := range bought {
			if b.Look == 0 {
				open = append(open, b.Name)
			}
		}
		told(len(bought) - len(open))
		// done ends the run at this look; spent says whether it was
		// judged at all that the looks before it left.
		done := func(spent bool) (*Result, error) {
			res.Sequential = &Sequential{Budget: opts.Budget, Used: time.Since(start), Plan: plan, Looks: looks,
				Decided: decidedAt(bought, len(looks)), Benchmarks: bought, LastSpent: spent}
			return res, nil
		}
		if len(open) == 0 || last {
			return done(last)
		}
		final = n+opts.Rounds >= plan || left-opts.Rounds < least
		total := 2 * max(plan, n+opts.Rounds)
		if final {
			total = 2 * (n + left)
		}
		// A batch runs in parts of at most opts.Rounds, each timed:
		// later batches run fewer benchmarks, and their own pace says
		// whether more fits. The last batch goes on, part by part,
		// while the budget holds another part at the latest pace, so
		// that a pace misjudged on the last twenty rounds cannot carry
		// it past the budget by more than one part.
		m := n
		for {
			k := min(opts.Rounds, fits(m))
			if k < 2 {
				break
			}
			part := time.Now()
			if err := more(m, m+k, total, open); err != nil {
				return nil, err
			}
			pace = time.Since(part) / time.Duration(k)
			m += k
			if !final {
				break
			}
		}
		if m == n {
			// Nothing fitted after all (the analysis took the time):
			// this look, judged at its share, was the last.
			return done(false)
		}
		looks = append(looks, m)
	}
}

// decidedAt counts the benchmarks of bought decided at each of looks
// looks.
func decidedAt(bought []SequentialBenchmark, looks int) []int {
	decided := make([]int, looks)
	for _, b := range bought {
		if b.Look > 0 {
			decided[b.Look-1]++
		}
	}
	return decided
}

// analyzeLooks is analyze at each look of a sequential run: looks are the
// rounds at each (increasing), plan the most rounds planned. At each look
// every benchmark not yet decided gets its interval at the look's
// confidence (stats.LookConfidence, spending 1 - Confidence over the
// looks; with last, the last look at stats.FinalLookConfidence, all
// that the earlier looks left) and its verdict at opts.MaxRegression;
// one that is not
// inconclusive keeps that look's figures from then on, whatever later
// rounds (which need not run it) hold. The Result is the last look's,
// with the decided benchmarks' figures of their look; bought says, per
// benchmark, what the looks gave it.
func analyzeLooks(opts Options, base, head [][]byte, looks []int, plan int, last bool) (res *Result, bought []SequentialBenchmark, err error) {
	kept := map[string]Benchmark{}
	first := map[string]float64{} // interval widths at the first look
	prev := 0
	for look, n := range looks {
		if res, err = analyze(opts, base[:n], head[:n]); err != nil {
			return nil, nil, err
		}
		conf := stats.LookConfidence(1-Confidence, n, prev, plan)
		if last && look == len(looks)-1 {
			conf = stats.FinalLookConfidence(1-Confidence, prev, plan)
		}
		prev = n
		for i, b := range res.Benchmarks {
			if d, ok := kept[b.Name]; ok {
				res.Benchmarks[i] = d
				continue
			}
			b = b.at(conf)
			res.Benchmarks[i] = b
			if look == 0 {
				first[b.Name] = width(b)
			}
			if res.Judge(b, opts.MaxRegression).Verdict != verdict.Inconclusive {
				kept[b.Name] = b
				bought = append(bought, SequentialBenchmark{Name: b.Name, Look: look + 1})
			}
		}
	}
	at := map[string]int{}
	for i, b := range bought {
		at[b.Name] = i
	}
	out := make([]SequentialBenchmark, 0, len(res.Benchmarks))
	for _, b := range res.Benchmarks {
		sb := SequentialBenchmark{Name: b.Name}
		if i, ok := at[b.Name]; ok {
			sb.Look = bought[i].Look
		}
		sb.Rounds, sb.Verdict = len(b.Ratios), string(res.Judge(b, opts.MaxRegression).Verdict)
		sb.FirstWidth, sb.Width = -1, width(b)
		if w, ok := first[b.Name]; ok {
			sb.FirstWidth = w
		}
		out = append(out, sb)
	}
	return res, out, nil
}

// width is the width of b's interval of the change (hi - lo, a fraction
// of base's figure), -1 when it has none.
func width(b Benchmark) float64 {
	lo, hi, ok := b.ChangeInterval()
	if !ok {
		return -1
	}
	return hi - lo
}

// benchUnion is a -test.bench pattern that selects at least the
// benchmarks named (as benchfmt prints them): at each level, the union
// of the names' levels, each quoted and anchored. The testing package
// matches level by level, so the pattern may also select a combination
// of one name's first level with another's second: those results are
// parsed and, for a benchmark already decided, ignored.
func benchUnion(names []string) string {
	var levels [][]string
	seen := map[int]map[string]bool{}
	for _, name := range names {
		for i, l := range strings.Split(benchRegexp(name), "/") {
			if i == len(levels) {
				levels = append(levels, nil)
				seen[i] = map[string]bool{}
			}
			if !seen[i][l] {
				seen[i][l] = true
				levels[i] = append(levels[i], l)
			}
		}
	}
	out := make([]string, len(levels))
	for i, ls := range levels {
		out[i] = ls[0]
		if len(ls) > 1 {
			out[i] = "(?:" + strings.Join(ls, "|") + ")"
		}
	}
	return strings.Join(out, "/")
}
