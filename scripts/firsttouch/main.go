// Command firsttouch shows what the first benchmark of a process pays for
// first touching the heap's pages: after a ballast (serbench's default
// 64 MiB live heap), it times rounds of encoding/json marshals of the
// sse-event seed value, each round after a forced collection as the
// testing package runs a benchmark, and prints each round's ns/op and the
// minor page faults it took (getrusage). docs/findings/noisy.md quotes it.
//
//	go run ./scripts/firsttouch [-ops 200000] [-rounds 4] [-live-heap 64]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
)

func main() {
	ops := flag.Int("ops", 200000, "marshals per round")
	rounds := flag.Int("rounds", 4, "rounds")
	liveMiB := flag.Int("live-heap", 64, "ballast in MiB")
	flag.Parse()
	if *ops < 1 || *rounds < 1 || *liveMiB < 0 {
		fmt.Fprintln(os.Stderr, "firsttouch: -ops and -rounds must be positive, -live-heap not negative")
		os.Exit(2)
	}
	ballast := make([]byte, *liveMiB<<20)
	v := scenario.NewSSEEvent()
	var sink []byte
	for r := 1; r <= *rounds; r++ {
		runtime.GC()
		f0, t0 := minorFaults(), time.Now()
		for range *ops {
			b, err := json.Marshal(v)
			if err != nil {
				fmt.Fprintln(os.Stderr, "firsttouch:", err)
				os.Exit(1)
			}
			sink = b
		}
		d, f := time.Since(t0), minorFaults()-f0
		fmt.Printf("round %d: %.0f ns/op, %d minor page faults (%.1f per 1,000 ops)\n", r, float64(d.Nanoseconds())/float64(*ops), f, float64(f)*1000/float64(*ops))
	}
	runtime.KeepAlive(ballast)
	runtime.KeepAlive(sink)
}

// minorFaults returns the process's minor page faults so far, 0 where
// they cannot be read.
func minorFaults() int64 {
	u, _ := env.ProcessUsage() // zero on error, as documented
	return u.MinorFaults
}
