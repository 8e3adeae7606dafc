package ab

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/sys/cpu"
)

// ErrNoValgrind is the error (wrapped) of a Run with MeasureInstructions
// on a machine without valgrind. Its message names the Debian package.
var ErrNoValgrind = errors.New("valgrind is not on PATH: install the Debian package valgrind (apt-get install valgrind)")

// Counter says how a Result's instructions were counted.
type Counter struct {
	// Tool is the counter used: "callgrind (valgrind-3.19.0)".
	Tool string
	// Hardware says whether this machine's hardware counters could have
	// counted instead: "not available (perf_event_open: no such file or
	// directory)" or "available, not used".
	Hardware string
	// CPUFeatures are the CPU features serbench's own process sees
	// natively, as golang.org/x/sys/cpu reports them ("avx2", "bmi2",
	// ...), sorted.
	CPUFeatures []string
	// EmulatedCPUFeatures are those that a process sees under valgrind,
	// which emulates a CPU of its own: the code a codec that dispatches
	// on CPU features (sonic) runs there may differ from the code it runs
	// natively. Empty when Options.Probe was not set or failed (a warning
	// says why).
	EmulatedCPUFeatures []string
}

// CPUFeatures returns the CPU features the calling process sees, as
// golang.org/x/sys/cpu reports them: the lower-cased names of its fields
// X86.HasAVX2, ARM64.HasASIMD, ... that are set ("avx2", "asimd"), in
// the order the package declares them.
func CPUFeatures() []string {
	var out []string
	for _, v := range []any{&cpu.X86, &cpu.ARM64} {
		rv := reflect.ValueOf(v).Elem()
		for i := range rv.NumField() {
			f := rv.Type().Field(i)
			if name, ok := strings.CutPrefix(f.Name, "Has"); ok && f.Type.Kind() == reflect.Bool && rv.Field(i).Bool() {
				out = append(out, strings.ToLower(name))
			}
		}
	}
	return out
}

// callgrind runs test binaries under valgrind's callgrind.
type callgrind struct {
	valgrind string // the path of valgrind
	version  string // "valgrind-3.19.0"
	tmp      string // where its out files go
}

// newCallgrind finds valgrind with lookPath (exec.LookPath but in tests)
// and asks its version. Without valgrind the error wraps ErrNoValgrind.
func newCallgrind(ctx context.Context, lookPath func(string) (string, error), tmp string) (*callgrind, error) {
	path, err := lookPath("valgrind")
	if err != nil {
		return nil, fmt.Errorf("ab: -measure %s counts with valgrind's callgrind, but %w", MeasureInstructions, ErrNoValgrind)
	}
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("ab: %s --version: %w", path, err)
	}
	return &callgrind{valgrind: path, version: strings.TrimSpace(string(out)), tmp: tmp}, nil
}

// env is the environment of a process under valgrind: Go's asynchronous
// preemption off (callgrind asserts on its signals); one P, so that no
// idle thread spins for work (valgrind runs one thread at a time anyway);
// and no collection until the heap reaches 1 GiB (GOGC=off,
// GOMEMLIMIT=1GiB). A collection cycle costs millions of instructions,
// and whether the run of 2N iterations has one cycle more than the run of
// N or two depends on timing: with collection on, identical builds
// differed by up to 9% in instructions/op (codec/protobuf's marshal
// cells, N about 50,000), with it off by at most 0.8% (N 11,000-22,000).
// The testing package's own collection before each run of a benchmark
// still happens, in both runs.
func (c *callgrind) env() []string {
	godebug := "asyncpreemptoff=1"
	if g := os.Getenv("GODEBUG"); g != "" {
		godebug = g + "," + godebug
	}
	return append(os.Environ(), "GODEBUG="+godebug, "GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=1GiB")
}

// count runs the test binary bin in dir with args under callgrind and
// returns the instructions it executed, all threads together, and its
// standard output.
func (c *callgrind) count(ctx context.Context, bin, dir string, args []string) (int64, []byte, error) {
	f, err := os.CreateTemp(c.tmp, "callgrind-*.out")
	if err != nil {
		return 0, nil, fmt.Errorf("ab: %w", err)
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	cmd := exec.CommandContext(ctx, c.valgrind, append([]string{"--tool=callgrind", "-q", "--callgrind-out-file=" + name, bin}, args...)...)
	cmd.Dir, cmd.Env = dir, c.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return 0, nil, ctx.Err()
		}
		return 0, nil, fmt.Errorf("test binary failed under callgrind (%v): %s", err, failure(stdout.String()+"\n"+stderr.String()))
	}
	out, err := os.Open(name)
	if err != nil {
		return 0, nil, fmt.Errorf("ab: callgrind wrote no out file: %w", err)
	}
	defer out.Close()
	n, err := parseCallgrind(out)
	if err != nil {
		return 0, nil, err
	}
	return n, stdout.Bytes(), nil
}

// probe runs argv under valgrind (its tool "none": no counting) and
// returns the features it prints on its first line, space-separated.
func (c *callgrind) probe(ctx context.Context, argv []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, c.valgrind, append([]string{"--tool=none", "-q"}, argv...)...)
	cmd.Env = c.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("ab: the CPU feature probe under valgrind failed (%v): %s", err, firstLine(stderr.String()))
	}
	return strings.Fields(firstLine(string(out))), nil
}

// parseCallgrind reads a callgrind out file (format:
// https://valgrind.org/docs/manual/cl-format.html) and returns its total
// of the event Ir, instructions executed: the "totals:" line, else the
// "summary:" line, whose values are in the order of the "events:" line.
// A file without Ir or without either line is an error.
func parseCallgrind(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	col := -1
	var totals, summary string
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "events:"):
			col = -1
			for i, e := range strings.Fields(strings.TrimPrefix(l, "events:")) {
				if e == "Ir" {
					col = i
				}
			}
		case strings.HasPrefix(l, "totals:"):
			totals = strings.TrimPrefix(l, "totals:")
		case strings.HasPrefix(l, "summary:"):
			summary = strings.TrimPrefix(l, "summary:")
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("ab: read callgrind output: %w", err)
	}
	if col < 0 {
		return 0, errors.New("ab: callgrind output has no Ir event")
	}
	line := totals
	if line == "" {
		line = summary
	}
	if line == "" {
		return 0, errors.New("ab: callgrind output has no totals: or summary: line")
	}
	fields := strings.Fields(line)
	if col >= len(fields) {
		return 0, fmt.Errorf("ab: callgrind totals %q lack the Ir column", strings.TrimSpace(line))
	}
	n, err := strconv.ParseInt(fields[col], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("ab: callgrind total of Ir %q is not a count", fields[col])
	}
	return n, nil
}

// perOp is the instructions per operation of two runs of one benchmark,
// of n and of 2n iterations, that executed short and long instructions:
// (long - short) / n. What both runs do once (start-up, setup, the first
// run of one iteration) cancels. It is an error when the longer run
// executed fewer instructions or n < 1.
func perOp(short, long int64, n int) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("ab: %d iterations", n)
	}
	if long < short {
		return 0, fmt.Errorf("ab: %d iterations executed %d instructions, fewer than %d iterations (%d)", 2*n, long, n, short)
	}
	return float64(long-short) / float64(n), nil
}

// countedIterations is N for a benchmark that took nsPerOp natively: the
// iterations that take about benchtime, at least 2 and at most 1e9.
func countedIterations(nsPerOp float64, benchtimeNs int64) int {
	if !(nsPerOp > 0) {
		return 2
	}
	n := math.Ceil(float64(benchtimeNs) / nsPerOp)
	return int(max(2, min(n, 1e9)))
}

// benchRegexp is the -test.bench argument that selects exactly the
// benchmark named name as benchfmt prints it ("Encode/size=small-8"):
// each level quoted and anchored, the "Benchmark" the testing package
// matches against put back and the GOMAXPROCS suffix taken off.
func benchRegexp(name string) string {
	if i := strings.LastIndexByte(name, '-'); i >= 0 && i < len(name)-1 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	levels := strings.Split("Benchmark"+name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// hardwareText words hardwareCounters' answer for Counter.Hardware.
func hardwareText(err error) string {
	if err != nil {
		return "not available (" + err.Error() + ")"
	}
	return "available, not used (serbench ab counts with callgrind)"
}
