// Command serbench measures serialization codecs on payloads: which codec
// should this payload use, and what does the choice cost in CPU, memory,
// bytes and latency. Run `serbench help` for the subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/probe"
	"github.com/serbench/serbench/toolchain"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/httpapi"
	"github.com/serbench/serbench/transport/server"
)

func main() {
	if status, ok := childproc.Main(childRoles, os.Stderr); ok {
		os.Exit(status)
	}
	ctx, stop := interruptible(context.Background())
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "serbench: %v\n", err)
		os.Exit(exitCode(err))
	}
}

// interruptible returns a context that the first Ctrl-C (SIGINT) or
// SIGTERM cancels, so the command stops its work, cleans up and exits.
// The handler is removed before the context is cancelled, so once Done is
// closed a second signal kills the process at once (the signal's default
// action), whatever the command is doing. stop cancels the context and
// removes the handler.
func interruptible(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
		case <-ctx.Done():
		}
		signal.Stop(sig)
		cancel()
	}()
	return ctx, cancel
}

// childRoles are the child processes this program serves
// (internal/childproc): main, and TestMain in tests, run them first thing.
var childRoles = map[string]childproc.Role{
	probe.ChildRole:     fidelityChild,
	hostile.ChildRole:   hostileChild,
	toolchain.ChildRole: runWorker,
	server.ChildRole:    serverChild,
	processRole:         runProcessChild,
	httpapi.WorkerRole: func(arg string) error {
		return httpapi.ServeWorker(arg, os.Stdin, os.Stdout, transport.Resolver{Codecs: all.Registry()})
	},
}

// usageError is a command line that could not be parsed: an unknown
// subcommand or flag, a bad flag value, a missing or extra argument.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// inconclusiveError is a gate (ab and compare -max-regression) that
// found no regression but could not resolve every change at its
// threshold: exit status 3, so that CI tells it from a pass (0), a
// regression (1) and a usage error (2).
type inconclusiveError struct{ err error }

func (e inconclusiveError) Error() string { return e.err.Error() }
func (e inconclusiveError) Unwrap() error { return e.err }

// exitCode is 2 for a usage error, as the flag package's own programs do,
// 3 for an inconclusive gate and 1 for any other failure.
func exitCode(err error) int {
	switch {
	case errors.As(err, new(usageError)):
		return 2
	case errors.As(err, new(inconclusiveError)):
		return gate.StatusInconclusive
	}
	return 1
}

// A subcommand is one `serbench NAME` command, implemented in NAME.go:
// the summary that serbench help prints, and the command.
type subcommand struct {
	summary string
	run     func(ctx context.Context, stdout, stderr io.Writer, args []string) error
}

// subcommands are serbench's commands by name: the one table of them.
var subcommands = map[string]subcommand{
	"ab":          {"A/B test of your module's benchmarks at two git revisions, interleaved in one run", cmdAB},
	"agree":       {"compare serbench's speed-ups with those of serbench export's plain go test loops, cell by cell, per GC condition", cmdAgree},
	"archive":     {"add saved runs to a results archive (one file per run, keyed by its env), or list one", cmdArchive},
	"compare":     {"compare result files (json or benchfmt) cell by cell with the first", cmdCompare},
	"conformance": {"run JSONTestSuite, the CBOR WG vectors and msgpack-test-suite against the codecs", cmdConformance},
	"evolve":      {"schema evolution: old writer → new reader and back, per codec and change", cmdEvolve},
	"export":      {"write a standalone Go module of plain go test benchmarks of the same codecs and scenarios", cmdExport},
	"fidelity":    {"send every probe value through every codec: what each keeps, changes or refuses", cmdFidelity},
	"hostile":     {"feed every decoder malformed input in a guarded child process and report panics, hangs and allocation bombs", cmdHostile},
	"init":        {"write a starter serbench_test.go that benchmarks your own Go type", cmdInit},
	"list":        {"list the codecs and scenarios with their IDs", cmdList},
	"load":        {"open-loop SSE/WebSocket push load or HTTP request load on loopback, per-codec latency and bytes", cmdLoad},
	"merge":       {"combine serbench load -format json runs taken at the same time on several machines", cmdMerge},
	"plan":        {"what each codec × compressor costs at a message rate: cores, wire bytes, monthly cost, binding limit, budgets", cmdPlan},
	"run":         {"run the codec × scenario matrix and print the results", runCommand{builder: checkoutBuilder}.run},
	"schema":      {"write the .proto, .avsc or .fbs schema derived from a Go type of your package", cmdSchema},
	"serve":       {"serve SSE (/sse) and WebSocket (/ws) push streams on loopback", cmdServe},
	"show":        {"print a saved result file (json or benchfmt) in another format", cmdShow},
	"site":        {"write a static results explorer (opens from file://) from archived runs", cmdSite},
	"version":     {"print serbench's version, the Go version and every codec library's version", cmdVersion},
}

// run is the whole command: main only adds the process's streams, signals
// and exit status, so tests call run directly.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		usage(stderr)
		return usagef("no subcommand (want one of %s)", strings.Join(names(), ", "))
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		usage(stdout)
		return nil
	}
	sc, ok := subcommands[name]
	if !ok {
		return usagef("unknown subcommand %q (want one of %s)", name, strings.Join(names(), ", "))
	}
	return sc.run(ctx, stdout, stderr, args[1:])
}

func names() []string {
	n := make([]string, 0, len(subcommands))
	for k := range subcommands {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: serbench <subcommand> [flags]")
	fmt.Fprintln(w)
	for _, n := range names() {
		fmt.Fprintf(w, "  %-12s %s\n", n, subcommands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run serbench <subcommand> -h for its flags.")
}

// newFlagSet returns the flag set of the subcommand name, which reports
// on stderr; -h prints the usage lines, when given, then the flags (with
// none, the flag package's own "Usage of NAME:" heading).
func newFlagSet(name string, stderr io.Writer, usage ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if len(usage) > 0 {
		fs.Usage = func() {
			for _, l := range usage {
				fmt.Fprintln(stderr, l)
			}
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses a subcommand's args with fs and checks its positional
// arguments: exactly nargs of them, or at least -nargs when nargs is
// negative, described by what in the error (nargs 0: none). help is true when -h was given and the usage has been printed;
// the subcommand then returns nil. Any other problem is a usageError whose
// message main prints once (the flag package's own report is silenced, so
// an unknown flag is not reported twice).
func parseFlags(fs *flag.FlagSet, args []string, nargs int, what string) (help bool, err error) {
	if nargs < 0 {
		return parseFlagsArgs(fs, args, -nargs, -1, what)
	}
	return parseFlagsArgs(fs, args, nargs, nargs, what)
}

// parseFlagsArgs is parseFlags for lo to hi positional arguments (hi < 0:
// no upper bound).
func parseFlagsArgs(fs *flag.FlagSet, args []string, lo, hi int, what string) (help bool, err error) {
	out, printUsage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err = fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = printUsage
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return true, nil
		}
		return false, usagef("%s: %v (see serbench %s -h)", fs.Name(), err, fs.Name())
	}
	for _, a := range fs.Args()[min(max(hi, 0), fs.NArg()):] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			return false, usagef("%s: flag %s comes after the arguments; flags go first", fs.Name(), a)
		}
	}
	switch {
	case hi == 0 && fs.NArg() > 0:
		return false, usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	case fs.NArg() < lo || (hi >= 0 && fs.NArg() > hi):
		return false, usagef("%s: want %s (got %d arguments)", fs.Name(), what, fs.NArg())
	}
	if s, ok := out.(parseStopper); ok {
		return false, s.stopAfterParse(fs)
	}
	return false, nil
}

// A parseStopper, given to a subcommand as its stderr, stops it once its
// command line has parsed: parseFlags returns stopAfterParse's error in
// place of running the subcommand. Tests use it to parse commands without
// running them (docs_test.go); parseFlags finds it by type assertion on
// the flag set's output.
type parseStopper interface {
	io.Writer
	stopAfterParse(fs *flag.FlagSet) error
}
