package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/compare"
)

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
	v, err := compare.ParseThreshold(s)
	if err != nil {
		return fmt.Errorf("not a percentage: %q", s)
	}
	if v >= bench.MaxTarget {
		return fmt.Errorf("%q out of range [0%%, 100%%)", s)
	}
	*p = percent(v)
	return nil
}

// parsedValue is a flag whose text parse, the library's own reader and
// validator of it, turns into a T: a text parse rejects fails the flag's
// parse, a usage error naming the flag. v holds the default until the flag
// is given, text what was given ("" when it was not).
type parsedValue[T any] struct {
	text  string
	v     T
	parse func(string) (T, error)
}

func (p *parsedValue[T]) String() string { return p.text }

func (p *parsedValue[T]) Set(s string) error {
	v, err := p.parse(s)
	if err != nil {
		return err
	}
	p.text, p.v = s, v
	return nil
}

// parsedFlag defines on fs a flag read by parse, def until given.
func parsedFlag[T any](fs *flag.FlagSet, name string, def T, usage string, parse func(string) (T, error)) *parsedValue[T] {
	p := &parsedValue[T]{v: def, parse: parse}
	fs.Var(p, name, usage)
	return p
}

// checkedFlag defines a string flag on fs whose values check accepts.
func checkedFlag(fs *flag.FlagSet, name, usage string, check func(string) error) *string {
	return &parsedFlag(fs, name, "", usage, func(s string) (string, error) { return s, check(s) }).v
}

// thresholdFlag defines a threshold flag on fs (-max-regression,
// -tolerance): a percentage or a fraction (compare.ParseThreshold), none
// until given.
func thresholdFlag(fs *flag.FlagSet, name string, none float64, usage string) *parsedValue[float64] {
	return parsedFlag(fs, name, none, usage, compare.ParseThreshold)
}
