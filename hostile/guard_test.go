package hostile_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/scenario"
)

// TestMain turns the test binary into a child when Guard.Run starts it
// again in hostile.ChildRole, serving the fake decoders below.
func TestMain(m *testing.M) {
	serve := func(string) error { return hostile.ServeChild(fakeDecoder) }
	os.Exit(childproc.RunTests(m, map[string]childproc.Role{hostile.ChildRole: serve}))
}

var sink [][]byte

// fakeDecoder returns the fake decoders that the guard tests run. Each
// rejects inputs shorter than 2 bytes and accepts "ok"; on "go" it does its
// thing.
func fakeDecoder(target string) (hostile.Decoder, error) {
	if strings.Contains(target, "|") { // a Run target: TestRun's codecs
		return hostile.Targets(runRegistry(), scenario.Seeds())(target)
	}
	act, ok := map[string]func(){
		// panics: recovered in the child.
		"panic": func() {
			var m map[string]int
			//lint:ignore SA5000 the panic is what this fake decoder is for
			m["x"]++
		},
		// allocates without bound, keeping everything: out of memory
		// under the child's rlimit (on Linux), or timeout elsewhere.
		"unbounded": func() {
			for {
				sink = append(sink, make([]byte, 1<<20))
			}
		},
		// spins for ever: killed after the time limit.
		"hang": func() {
			for i := 0; ; i++ {
				if i < 0 {
					return
				}
			}
		},
		// recurses for ever: Go's fatal stack overflow.
		"recurse": func() { recurse(0) },
		// allocates 80 MiB once and returns: a bomb the child survives.
		"big": func() { sink = [][]byte{make([]byte, 80<<20)}; sink = nil },
	}[target]
	if !ok {
		return nil, fmt.Errorf("no fake decoder %q", target)
	}
	return func(data []byte) error {
		switch {
		case len(data) < 2:
			return errors.New("too short")
		case string(data) == "go":
			act()
		}
		return nil
	}, nil
}

//go:noinline
func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	//lint:ignore SA5007 recurses until the child's stack limit, on purpose
	return recurse(n+1) + int(pad[0])
}

// guardLimits leave a busy machine 3 s for what should take milliseconds.
var guardLimits = hostile.Limits{Time: 3 * time.Second, Memory: 64 << 20, Stack: 8 << 20}

// TestGuard runs each fake decoder on ["x", "go", "ok"] in child processes
// and checks that what it did comes back as the right outcome, and that the
// input after a killing one still runs in a new child.
func TestGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes and waits for a time limit")
	}
	inputs := []hostile.Input{{Name: "short", Data: []byte("x")}, {Name: "go", Data: []byte("go")}, {Name: "ok", Data: []byte("ok")}}
	tests := []struct {
		target string
		want   hostile.Outcome
		msg    string // substring of the result's message
	}{
		{"panic", hostile.Panicked, "assignment to entry in nil map"},
		{"unbounded", hostile.OutOfMemory, ""},
		{"hang", hostile.Timeout, "still running after 3s"},
		{"recurse", hostile.StackOverflow, "stack overflow"},
		{"big", hostile.Accepted, ""},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			if tt.target == "unbounded" && guardLimits.Rlimit() == "" {
				// Without an rlimit (not Linux, or a -race binary) nothing
				// stops it but the time limit, after gigabytes.
				t.Skip("no rlimit in the child here")
			}
			t.Parallel()
			res, err := hostile.Guard{Limits: guardLimits}.Run(context.Background(), tt.target, []byte("ok"), inputs)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 3 {
				t.Fatalf("got %d results, want 3: %+v", len(res), res)
			}
			if res[0].Outcome != hostile.Rejected || res[0].Message != "too short" {
				t.Errorf("short input: %+v, want rejected with \"too short\"", res[0])
			}
			if res[1].Outcome != tt.want || !strings.Contains(res[1].Message, tt.msg) {
				t.Errorf("go input: %+v, want %s with %q", res[1], tt.want, tt.msg)
			}
			if res[2].Outcome != hostile.Accepted {
				t.Errorf("input after it: %+v, want accepted", res[2])
			}
			row := hostile.Summarize("fake", tt.target, res)
			switch tt.target {
			case "panic":
				if row.Panics != 1 || len(row.Findings) != 1 || !strings.HasSuffix(row.Findings[0].Origin, "fakeDecoder.func1") {
					t.Errorf("row %+v, want 1 panic found in fakeDecoder.func1", row)
				}
			case "big":
				if row.Bombs != 1 || row.WorstAllocInput != "go" || row.WorstAlloc < 80<<20 {
					t.Errorf("row %+v, want the 80 MiB allocation of input \"go\" counted as a bomb", row)
				}
			default:
				if row.Killed != 1 || row.Accepted != 1 || row.Rejected != 1 {
					t.Errorf("row %+v, want 1 killed, 1 accepted, 1 rejected", row)
				}
			}
		})
	}
}

// TestGuardMaxKills checks that a target that keeps killing its child stops
// after MaxKills and the rest are skipped, not tried for ever.
func TestGuardMaxKills(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	inputs := make([]hostile.Input, 5)
	for i := range inputs {
		inputs[i] = hostile.Input{Name: fmt.Sprint(i), Data: []byte("go")}
	}
	lim := guardLimits
	lim.MaxKills = 2
	res, err := hostile.Guard{Limits: lim}.Run(context.Background(), "recurse", []byte("ok"), inputs)
	if err != nil {
		t.Fatal(err)
	}
	row := hostile.Summarize("fake", "recurse", res)
	if row.Killed != 2 || row.Skipped != 3 || len(row.Findings) != 1 || row.Findings[0].Count != 2 {
		t.Errorf("row %+v, want 2 killed (one finding of 2) and 3 skipped", row)
	}
}

func TestGuardUnknownTarget(t *testing.T) {
	_, err := hostile.Guard{Limits: guardLimits}.Run(context.Background(), "nope", nil, []hostile.Input{{Name: "a"}})
	if err == nil || !strings.Contains(err.Error(), `no fake decoder "nope"`) {
		t.Errorf("got %v, want the child's lookup error", err)
	}
}

func TestLimitsEffective(t *testing.T) {
	l, err := hostile.Limits{}.Effective()
	if err != nil || l.Time != hostile.DefaultTime || l.Memory != hostile.DefaultMemory || l.Stack != hostile.DefaultStack || l.MaxKills != hostile.DefaultMaxKills {
		t.Errorf("zero Limits: %+v, %v; want the defaults", l, err)
	}
	for _, bad := range []hostile.Limits{{Time: -1}, {Memory: 1 << 20}, {Stack: 1024}, {MaxKills: -1}} {
		if _, err := bad.Effective(); err == nil || !strings.HasPrefix(err.Error(), "hostile: invalid") {
			t.Errorf("%+v: got %v, want an invalid-limit error", bad, err)
		}
	}
}
