package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/serbench/serbench/gate"
)

// gateOutcome prints a gate's lines on stderr, each regressed figure
// after "regression: " then each inconclusive one after "inconclusive: ",
// and returns the gate's outcome by the exit rule ab and compare share
// (gate.Status): an error worded worse() for a regression (exit 1), an
// inconclusiveError worded unsure() when none regressed but some are
// inconclusive (exit 3), nil when the gate passed (exit 0).
func gateOutcome(stderr io.Writer, regressed, inconclusive []string, worse, unsure func() string) error {
	for _, l := range regressed {
		if _, err := fmt.Fprintf(stderr, "regression: %s\n", l); err != nil {
			return err
		}
	}
	for _, l := range inconclusive {
		if _, err := fmt.Fprintf(stderr, "inconclusive: %s\n", l); err != nil {
			return err
		}
	}
	switch gate.Status(len(regressed), len(inconclusive)) {
	case gate.StatusRegressed:
		return errors.New(worse())
	case gate.StatusInconclusive:
		return inconclusiveError{errors.New(unsure())}
	}
	return nil
}

// lines is each figure's line (gate.Figure.String).
func lines(figs []gate.Figure) []string {
	out := make([]string, len(figs))
	for i, f := range figs {
		out[i] = f.String()
	}
	return out
}
