package codec

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrAliasUnchecked is wrapped by AliasesInput when the probe could not
// run: the decoded value was not the expected one before the input was
// touched, or Unmarshal failed.
var ErrAliasUnchecked = errors.New("alias probe not run")

// AliasesInput is the alias probe: it unmarshals a copy of data with b,
// checks the result with check (nil: the expected value), flips every bit
// of the copy and checks the same result again. It returns true when the
// second check fails: the decoded value changed with the input bytes, so
// it shares their memory (strings or slices pointing into the input, or a
// view that reads it in place), and a caller that reuses or frees its read
// buffer changes or corrupts values it already decoded. A panic in the
// second check counts as aliasing too (a view that reads offsets from the
// overwritten bytes). It returns false when the value came through
// unchanged.
//
// check receives Unmarshal's result as it is: a caller that compares a
// scenario value calls Value in it, so that a Converter's generated value
// is judged by what FromNative builds from it after the overwrite, and a
// parse-only codec's caller compares DOM.Tree. The error, when the probe
// could not run, wraps ErrAliasUnchecked and names the step. b's
// Unmarshal is called once; with Info.ReusesOutput, pass a Binding whose
// last result the caller no longer needs.
func AliasesInput(b Binding, data []byte, check func(out any) error) (bool, error) {
	in := bytes.Clone(data)
	out, err := b.Unmarshal(in)
	if err != nil {
		return false, fmt.Errorf("%w: unmarshal: %w", ErrAliasUnchecked, err)
	}
	if err := check(out); err != nil {
		return false, fmt.Errorf("%w: before overwriting the input: %w", ErrAliasUnchecked, err)
	}
	for i := range in {
		in[i] ^= 0xff
	}
	return checkAfter(check, out) != nil, nil
}

// checkAfter runs check, turning a panic into an error.
func checkAfter(check func(out any) error, out any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	return check(out)
}

// FoldAliases folds per-scenario alias findings into Info.AliasesInput:
// true when one is true, false when at least one was probed and none is
// true, nil when none was probed (every finding nil).
func FoldAliases(findings []*bool) *bool {
	var out *bool
	for _, f := range findings {
		switch {
		case f == nil:
		case *f:
			return new(true)
		default:
			out = new(false)
		}
	}
	return out
}
