package bench

import (
	"runtime"
	"sync"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// parallel measures c with 1..GOMAXPROCS goroutines at once, each running
// c.Iterations operations (about one sample's Benchtime alone) on a Binding
// of its own, and fills c.Parallel: wall time and, where getrusage(2)
// answers (env.ProcessUsage), the process's CPU time per operation. A
// failure ends the cell like a failed sample.
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
		u0, uerr := env.ProcessUsage()
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
		u1, uerr1 := env.ProcessUsage()
		for _, err := range errs {
			if err != nil {
				c.stop(err)
				return
			}
		}
		ops := float64(g * c.Iterations)
		p := results.ParallelPoint{Goroutines: g, NsPerOp: float64(el.Nanoseconds()) / ops, OpsPerS: ops / el.Seconds()}
		if cpu := u1.CPU() - u0.CPU(); uerr == nil && uerr1 == nil && cpu > 0 {
			p.CPUNsPerOp = float64(cpu.Nanoseconds()) / ops
		}
		if g == 1 {
			base = p.OpsPerS
		}
		if base > 0 {
			p.Scaling = p.OpsPerS / base
		}
		c.Parallel = append(c.Parallel, p)
	}
}
