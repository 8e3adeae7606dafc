package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/toolchain"
)

// actions are the subcommands whose first argument names an action, each
// with its own flags.
var actions = map[string][]string{"archive": {"add", "list"}}

// commandLines returns every command (subcommand, and action if it has
// them) as the start of a command line.
func commandLines() [][]string {
	var out [][]string
	for _, name := range names() {
		if acts, ok := actions[name]; ok {
			for _, a := range acts {
				out = append(out, []string{name, a})
			}
			continue
		}
		out = append(out, []string{name})
	}
	return out
}

// flagSetOf returns the flag set of the command cmd (commandLines),
// parsed from no flags and as few positional arguments ("x") as it takes,
// without running it.
func flagSetOf(t *testing.T, cmd []string) (fs *flag.FlagSet, positional []string) {
	t.Helper()
	stderr := &parseOnly{Writer: io.Discard}
	for n := 0; n <= 4; n++ {
		args := append([]string(nil), cmd...)
		for range n {
			args = append(args, "x")
		}
		if err := run(context.Background(), io.Discard, stderr, args); errors.Is(err, errParsed) {
			return stderr.fs, args[len(cmd):]
		}
	}
	t.Fatalf("%s: no command line of 0 to 4 arguments parses", strings.Join(cmd, " "))
	return nil, nil
}

// badValues are, per kind of flag value, values that no flag of that kind
// takes: one that does not parse, one out of range.
func badValues(v flag.Value) []string {
	switch v.(type) {
	case *percent:
		return []string{"many", "200%"}
	case *choiceValue:
		return []string{"no-such-choice"}
	case *codecsValue:
		return []string{"no-such-codec"}
	case *outputValue:
		return []string{""}
	case *parsedValue[[]toolchain.Spec]:
		return []string{"1.27"}
	case *parsedValue[[]toolchain.Module]:
		return []string{"no-version"}
	case *parsedValue[float64]: // thresholds
		return []string{"many", "-5%"}
	case *parsedValue[benchtime]:
		return []string{"soon", "-7s"}
	case *parsedValue[[]float64]: // load's -mix (its count is checked against -codecs)
		return []string{"lots"}
	case *parsedValue[[]int64]: // -sizes
		return []string{"huge", "100B"}
	case *parsedValue[[]compressor.Algorithm]:
		return []string{"brotli", ","}
	case *parsedValue[plan.Transport]:
		return []string{"fast", "1,2"}
	case *parsedValue[*int]: // -gogc
		return []string{"lots", "-5"}
	case *parsedValue[[]int]: // -pin
		return []string{"x", "-1"}
	}
	switch fmt.Sprintf("%T", v) {
	case "*flag.intValue", "*flag.int64Value", "*flag.uintValue", "*flag.uint64Value":
		return []string{"lots", "-7"}
	case "*flag.float64Value":
		return []string{"lots", "-7"}
	case "*flag.durationValue":
		return []string{"soon", "-7s"}
	case "*flag.boolValue":
		return []string{"maybe"}
	}
	return nil // strings: what each takes is its own, see TestBadFlagValuesExit2
}

// exit1 are the flags known to take a bad value and fail later with
// status 1, each with why; the test fails on any other, and on an entry
// here that no longer happens.
var exit1 = map[string]string{}

// TestEveryFlagExit2 walks the flags of every subcommand and gives each a
// value of its kind that does not parse or is out of range: the subcommand
// must fail with a usage error, exit status 2, as docs/reference.md says,
// before any work (the context is cancelled, so work would end at once
// with another error). Positional arguments are dummies ("x"), so the
// value is checked before them or the dummy fails with status 1.
func TestEveryFlagExit2(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var got []string
	seen := map[string]bool{}
	for _, cmd := range commandLines() {
		name := strings.Join(cmd, " ")
		fs, positional := flagSetOf(t, cmd)
		fs.VisitAll(func(f *flag.Flag) {
			for _, bad := range badValues(f.Value) {
				args := append(append([]string(nil), cmd...), "-"+f.Name+"="+bad)
				args = append(args, positional...)
				var o, e bytes.Buffer
				start := time.Now()
				err := run(ctx, &o, &e, args)
				key := name + " -" + f.Name + "=" + bad
				if exitCode(err) != 2 && exit1[key] != "" {
					seen[key] = true
				} else if exitCode(err) != 2 {
					got = append(got, fmt.Sprintf("serbench %s: exit %d (%v, %v)", strings.Join(args, " "), exitCode(err), err, time.Since(start).Round(time.Millisecond)))
				}
			}
		})
	}
	sort.Strings(got)
	for _, s := range got {
		t.Error(s)
	}
	for key := range exit1 {
		if !seen[key] {
			t.Errorf("serbench %s: now exits 2; remove it from exit1", key)
		}
	}
}
