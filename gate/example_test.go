package gate_test

import (
	"fmt"

	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/verdict"
)

// A change of ns/op whose interval straddles a 5% gate is inconclusive:
// the line says by how much, and the gate exits with status 3.
func ExampleSort() {
	c := verdict.Change{Point: 0.067, Lo: 0.035, Hi: 0.098, Significant: true}
	j, err := verdict.Judge(c, 0.05)
	if err != nil {
		panic(err)
	}
	f := gate.Figure{Name: "Encode-8", Metric: "ns/op", Base: 1000, Head: 1067, Change: c, Q: 3.8e-06, Judgement: j,
		Remedies: []string{"about 73 rounds (-rounds 73)", "a quieter runner"}}
	s := gate.Sort([]gate.Figure{f})
	for _, f := range s.Inconclusive {
		fmt.Println("inconclusive:", f)
	}
	fmt.Println("exit status", s.Status())
	// Output:
	// inconclusive: Encode-8: ns/op +6.7% [+3.5%, +9.8%] (1,000 → 1,067, q=3.8e-06), inconclusive at 5%: the interval reaches 1.5 points past 5% (1.9× too wide; the smallest change this run resolves is ±3.2%): about 73 rounds (-rounds 73) or a quieter runner would resolve it
	// exit status 3
}
