package evolve

import (
	"fmt"
	"sort"
	"strconv"
)

// Outcome classifies one direction of one cell (see the package doc for
// the exact definitions).
type Outcome string

// The outcomes, from best to worst.
const (
	OK         Outcome = "ok"
	FieldLost  Outcome = "ok, field lost"
	WrongValue Outcome = "silently wrong value"
	Error      Outcome = "error"
)

// Classify compares what a reader got with what the writer wrote.
// written holds every field of the writer's version; readerFields lists
// the field meanings of the reader's version; got is the reader's value
// (ignored when err is non-nil). It returns the outcome and, sorted, one
// line per field that was lost or wrong ("amount: wrote 5000000000, read
// 705032704"; "coupon: lost, the reader has no such field"), or the error.
func Classify(written Record, readerFields []string, got Record, err error) (Outcome, []string) {
	if err != nil {
		return Error, []string{err.Error()}
	}
	var lost, wrong []string
	has := map[string]bool{}
	for _, f := range readerFields {
		has[f] = true
		want, g := written[f], got[f]
		switch {
		case same(want, g):
		case isZero(g):
			lost = append(lost, fmt.Sprintf("%s: wrote %s, read the zero value", f, show(want)))
		default:
			wrong = append(wrong, fmt.Sprintf("%s: wrote %s, read %s", f, show(want), show(g)))
		}
	}
	for f, x := range written {
		if !has[f] && !isZero(x) {
			lost = append(lost, fmt.Sprintf("%s: lost, the reader has no such field", f))
		}
	}
	sort.Strings(lost)
	sort.Strings(wrong)
	switch {
	case len(wrong) > 0:
		return WrongValue, append(wrong, lost...)
	case len(lost) > 0:
		return FieldLost, lost
	}
	return OK, nil
}

// show formats a Record value for a detail line: strings quoted, numbers
// in decimal, a missing value as "nothing".
func show(x any) string {
	switch x := x.(type) {
	case string:
		return strconv.Quote(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case nil:
		return "nothing"
	}
	return fmt.Sprint(x)
}
