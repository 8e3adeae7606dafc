package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/report"
)

// defaultTarget is run's default -target: ±3% for every cell's 95% interval.
const defaultTarget = 0.03

// percent is a flag.Value holding a fraction, written as a percentage
// ("3%") or a plain fraction ("0.03").
type percent float64

var _ flag.Value = (*percent)(nil)

func percentFlag(fs *flag.FlagSet, name string, def float64, usage string) *float64 {
	p := percent(def)
	fs.Var(&p, name, usage)
	return (*float64)(&p)
}

func (p *percent) String() string {
	return strconv.FormatFloat(100*float64(*p), 'g', -1, 64) + "%"
}

func (p *percent) Set(s string) error {
	v, err := report.ParseThreshold(s)
	if err != nil {
		return fmt.Errorf("not a percentage: %q", s)
	}
	if v >= bench.MaxTarget {
		return fmt.Errorf("%q out of range [0%%, 100%%)", s)
	}
	*p = percent(v)
	return nil
}

// noiseWarnings turns the run's noise into warnings when it exceeds what
// the target needs. A fixed -count has no target: its drift and steal are
// judged against ±3%, and the samples it would need are not its concern.
func noiseWarnings(m *bench.Measurement, opts bench.Options) []string {
	t := opts.Target
	if t == 0 {
		return m.Noise.Advice(defaultTarget, 0)
	}
	var samples, cells int
	for _, r := range m.Results {
		if r.Timed() {
			samples += r.SamplesTaken
			cells++
		}
	}
	perCell := 0.0
	if cells > 0 {
		perCell = float64(samples) / float64(cells)
	}
	return m.Noise.Advice(t, perCell)
}
