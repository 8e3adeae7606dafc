package codectest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
)

// Refusal is a type that a codec refuses in Bind, and the evidence that it
// must: Sample is a pointer to a value of the type, Reason a fragment of
// the error Bind must return, and Lib, when not nil, the library's own
// round trip (see LibRoundTrip), which must fail on Sample (an error, a
// panic, or a value that comes back changed) for the refusal to be needed.
type Refusal struct {
	Name   string
	Sample any
	Reason string
	Lib    func(sample any) error
}

// CheckRefusals checks every Refusal of rs against c: Bind returns an error
// wrapping codec.ErrUnsupported that contains Reason, and Lib fails on
// Sample. A Lib that starts to round-trip the sample fails the test: the
// refusal is no longer needed.
func CheckRefusals(t *testing.T, c codec.Codec, rs []Refusal) {
	t.Helper()
	for _, r := range rs {
		t.Run(r.Name, func(t *testing.T) {
			_, err := c.Bind(r.Sample)
			if !errors.Is(err, codec.ErrUnsupported) || !strings.Contains(err.Error(), r.Reason) {
				t.Errorf("Bind(%T) = %v, want ErrUnsupported with %q", r.Sample, err, r.Reason)
			}
			if r.Lib == nil {
				return
			}
			if err := catch(r.Lib, r.Sample); err == nil {
				t.Errorf("the library round-trips %T: Bind need not refuse it", r.Sample)
			} else {
				t.Logf("the library on %T: %v", r.Sample, err)
			}
		})
	}
}

// LibRoundTrip returns a round trip through a library's own marshal and
// unmarshal, called directly, without an adapter: it returns the error
// either returns, or the first difference (fidelity.Diff) between the
// sample and what comes back. A panic is left to the caller.
func LibRoundTrip(marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) func(sample any) error {
	return func(sample any) error {
		data, err := marshal(sample)
		if err != nil {
			return fmt.Errorf("marshal: %w", err)
		}
		got := reflect.New(reflect.TypeOf(sample).Elem()).Interface()
		if err := unmarshal(data, got); err != nil {
			return fmt.Errorf("unmarshal: %w", err)
		}
		return fidelity.Diff(sample, got)
	}
}

// catch calls f(v) and turns a panic into an error.
func catch(f func(any) error, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(v)
}
