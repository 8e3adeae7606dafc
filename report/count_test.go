package report_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// goTestOutput is what `go test -bench Codecs -count n` prints for a
// benchmark written with serbench.Benchmark on two codecs (GOMAXPROCS 2):
// encoding/json and cbor, marshal only, whose 2n ns/op samples interleave
// as order says (order[i] true: the i-th smallest sample is cbor's).
// Repeated lines of a cell appear in the sample's order of time, which is
// a shuffle of the sorted samples seeded by seed.
func goTestOutput(order []bool, seed uint64) string {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/order\ncpu: Test CPU @ 2.00GHz\n")
	var json, cbor []int
	for i, isCBOR := range order {
		ns := 1000 + 37*i
		if isCBOR {
			cbor = append(cbor, ns)
		} else {
			json = append(json, ns)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, c := range []struct {
		name    string
		samples []int
		size    int
	}{{"encoding.json", json, 118}, {"cbor", cbor, 96}} {
		rng.Shuffle(len(c.samples), func(i, j int) { c.samples[i], c.samples[j] = c.samples[j], c.samples[i] })
		name := "BenchmarkCodecs/codec=" + c.name + "/op=marshal"
		fmt.Fprintf(&b, "BenchmarkCodecs/codec=%s\n%s\n", c.name, name)
		for _, ns := range c.samples {
			mbs := float64(c.size) / float64(ns) * 1e3
			fmt.Fprintf(&b, "%s-2   \t  100000\t%10d ns/op\t%7.2f MB/s\t%12.1f B/msg\t     181 B/op\t       2 allocs/op\n", name, ns, mbs, float64(c.size))
		}
	}
	b.WriteString("PASS\nok  \texample.com/order\t12.345s\n")
	return b.String()
}

// orderings returns the interleavings of n samples of each side to try:
// all of them while there are at most limit, else limit drawn with a
// fixed seed.
func orderings(n, limit int) [][]bool {
	var all [][]bool
	var walk func(prefix []bool, ones, zeros int)
	walk = func(prefix []bool, ones, zeros int) {
		if len(all) > limit {
			return
		}
		if ones == 0 && zeros == 0 {
			all = append(all, append([]bool(nil), prefix...))
			return
		}
		if ones > 0 {
			walk(append(prefix, true), ones-1, zeros)
		}
		if zeros > 0 {
			walk(append(prefix, false), ones, zeros-1)
		}
	}
	walk(nil, n, n)
	if len(all) <= limit {
		return all
	}
	rng := rand.New(rand.NewPCG(uint64(n), 2))
	out := make([][]bool, limit)
	for i := range out {
		o := make([]bool, 2*n)
		for _, j := range rng.Perm(2 * n)[:n] {
			o[j] = true
		}
		out[i] = o
	}
	return out
}

// TestReadAnyCount reads and shows what go test -bench writes with every
// -count from 1 to 20, over many orderings of the two codecs' samples:
// rounding in the U-test's p-value must not make a real run implausible
// (issue: 6 of the 20 orderings failed at -count 3, 40 of 252 at 5).
func TestReadAnyCount(t *testing.T) {
	for n := 1; n <= 20; n++ {
		failed, tried := 0, 0
		limit := 252 // every ordering up to -count 5
		if n > 5 {
			limit = 60
		}
		for i, order := range orderings(n, limit) {
			tried++
			name := fmt.Sprintf("count%d-%d.txt", n, i)
			doc, err := results.Read(strings.NewReader(goTestOutput(order, uint64(i))), name)
			if err != nil {
				if failed == 0 {
					t.Errorf("-count %d: %v", n, err)
				}
				failed++
				continue
			}
			if len(doc.Results) != 2 {
				t.Fatalf("%s: %d results, want 2", name, len(doc.Results))
			}
			for _, r := range doc.Results {
				if len(r.Samples) != n || r.SpeedupP < 0 || r.SpeedupP > 1 {
					t.Errorf("%s: %s: %d samples, speedup_p %v", name, r.Codec, len(r.Samples), r.SpeedupP)
				}
			}
			var out bytes.Buffer
			if err := report.Table(&out, doc); err != nil || !strings.Contains(out.String(), "cbor") {
				t.Errorf("%s: table: %v\n%s", name, err, out.String())
			}
		}
		if failed > 0 {
			t.Errorf("-count %d: %d of %d orderings not read", n, failed, tried)
		}
	}
}
