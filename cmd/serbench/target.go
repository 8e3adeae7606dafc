package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/report"
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

// checkedValue is a string flag whose values check accepts: a value check
// rejects fails the parse, a usage error naming the flag.
type checkedValue struct {
	value string
	check func(string) error
}

func (v *checkedValue) String() string { return v.value }

func (v *checkedValue) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	v.value = s
	return nil
}

// checkedFlag defines a string flag on fs whose values check accepts.
func checkedFlag(fs *flag.FlagSet, name, usage string, check func(string) error) *string {
	v := &checkedValue{check: check}
	fs.Var(v, name, usage)
	return &v.value
}

// thresholdValue is a threshold flag (-max-regression, -tolerance): a
// percentage or a fraction that report.ParseThreshold accepts, or none
// when not given (then v is the flag's default, -1 for "no gate").
type thresholdValue struct {
	text string
	v    float64
}

func (t *thresholdValue) String() string { return t.text }

func (t *thresholdValue) Set(s string) (err error) {
	if t.v, err = report.ParseThreshold(s); err == nil {
		t.text = s
	}
	return err
}

// thresholdFlag defines a threshold flag on fs whose value is none when
// not given.
func thresholdFlag(fs *flag.FlagSet, name string, none float64, usage string) *thresholdValue {
	t := &thresholdValue{v: none}
	fs.Var(t, name, usage)
	return t
}
