package bench

import (
	"runtime"
	"sync"
	"time"

	"github.com/serbench/serbench/results"
)

// parallel measures c with 1..GOMAXPROCS goroutines at once, each running
// c.Iterations operations (about one sample's Benchtime alone) on a Binding
// of its own, and fills c.Parallel. A failure ends the cell like a failed
// sample.
func (c *cell) parallel() {
	if c.newFn == nil {
		return
	}
	procs := runtime.GOMAXPROCS(0)
	fns := make([]func(int) error, procs)
	for i := range fns {
		fn, err := c.newFn()
		if err != nil {
			c.stop(err)
			return
		}
		fns[i] = fn
	}
	var base float64
	for g := 1; g <= procs; g++ {
		runtime.GC()
		errs := make([]error, g)
		var wg sync.WaitGroup
		start := time.Now()
		for i := range g {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = fns[i](c.Iterations)
			}()
		}
		wg.Wait()
		el := time.Since(start)
		for _, err := range errs {
			if err != nil {
				c.stop(err)
				return
			}
		}
		ops := float64(g * c.Iterations)
		p := results.ParallelPoint{Goroutines: g, NsPerOp: float64(el.Nanoseconds()) / ops, OpsPerS: ops / el.Seconds()}
		if g == 1 {
			base = p.OpsPerS
		}
		if base > 0 {
			p.Scaling = p.OpsPerS / base
		}
		c.Parallel = append(c.Parallel, p)
	}
}
