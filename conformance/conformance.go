// Package conformance runs third-party conformance suites against the codecs
// they apply to and reports, per (suite, codec), how many cases passed and
// which did not.
//
// The suites ship inside the package (go:embed), so they run from an
// installed binary with no set-up; testdata/README.md says where each comes
// from, at which commit, under which license and what was kept:
//
//   - JSONTestSuite (nst/JSONTestSuite): every JSON codec decodes each file of
//     test_parsing into an `any`. A y_ file must decode, an n_ file must be
//     rejected, and an i_ file may go either way: its outcome is counted, not
//     judged.
//   - cbor-wg (cbor-wg/cbor-test-vectors, RFC 8949 Appendix A and more): the
//     cbor codec decodes each vector into an `any`, the value is compared with
//     the expected one, vectors marked as failing must be rejected, and the
//     value re-encoded in Core Deterministic Encoding (RFC 8949 §4.2.1) must
//     give back the vector's bytes unless the vector says it does not
//     round-trip.
//   - msgpack-test-suite (kawanet/msgpack-test-suite): each listed encoding
//     must decode to its value, and the codec's encoding of the value must be
//     one of the listed encodings.
//
// Every call into a library is guarded by recover: a panic is a finding
// (Miss.Panic), never a crash. Go cannot recover from a stack overflow, so
// the deepest input matters: the deepest suite input nests 100,000 arrays,
// which the libraries without a depth limit (segmentio-json and easyjson's
// lexer, as of the versions in go.mod) recurse through within Go's default
// 1 GB stack limit; deeper hostile input is not this package's job.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
)

// Schema identifies the JSON document that JSON writes.
const Schema = document.Conformance

// The suite IDs, as the -suites flag takes them.
const (
	SuiteJSON    = "jsontestsuite"
	SuiteCBOR    = "cbor-wg"
	SuiteMsgpack = "msgpack-test-suite"
)

// Suites lists the suite IDs in the order reports show them.
var Suites = []string{SuiteJSON, SuiteCBOR, SuiteMsgpack}

// Report is the outcome of Run plus where it ran.
type Report struct {
	// Schema is always the constant Schema.
	Schema string `json:"schema"`
	// Env is the machine and the module versions of the codecs.
	Env env.Env `json:"env"`
	// Rows holds one row per (suite, codec), suites in the order of Suites,
	// codecs in the order they were given.
	Rows []Row `json:"rows"`
}

// Row is one codec against one suite.
type Row struct {
	Suite string `json:"suite"`
	Codec string `json:"codec"`
	// Method says, in words, how the harness drove the codec ("Unmarshal
	// into *any", ...).
	Method string `json:"method,omitempty"`
	// NA, when set, says why the codec could not run this suite; Checks is
	// then empty.
	NA string `json:"na,omitempty"`
	// Checks are the counts, in a fixed order per suite.
	Checks []Check `json:"checks,omitempty"`
	// Misses lists every case that failed a judged check, in suite order.
	Misses []Case `json:"misses,omitempty"`
	// Outcomes lists the cases whose outcome is reported but not judged
	// (JSONTestSuite's i_ files), in suite order.
	Outcomes []Case `json:"outcomes,omitempty"`
}

// Check is one count of a row: Passed of Total cases.
type Check struct {
	// Name says what passing means: "y accepted", "n rejected", ...
	Name   string `json:"name"`
	Passed int    `json:"passed"`
	Total  int    `json:"total"`
	// Informative is true when the count is an outcome, not a verdict
	// ("i accepted": either way is allowed).
	Informative bool `json:"informative,omitempty"`
}

// Case is one case's outcome in a check.
type Case struct {
	// Name identifies the case within its suite (a file name, or
	// "file#index description").
	Name string `json:"name"`
	// Check is the Check.Name the case belongs to.
	Check string `json:"check"`
	// Detail says what happened: the error, the value got against the one
	// wanted, the panic message.
	Detail string `json:"detail"`
	// Panic is true when the library panicked on the case.
	Panic bool `json:"panic,omitempty"`
}

// Passed sums the judged checks of r: passed and total cases.
func (r Row) Passed() (passed, total int) {
	for _, c := range r.Checks {
		if !c.Informative {
			passed += c.Passed
			total += c.Total
		}
	}
	return passed, total
}

// Panics counts the cases of r on which the library panicked.
func (r Row) Panics() int {
	n := 0
	for _, m := range slices.Concat(r.Misses, r.Outcomes) {
		if m.Panic {
			n++
		}
	}
	return n
}

// Options selects what Run runs. The zero value runs every suite against
// every codec it applies to.
type Options struct {
	// Suites are suite IDs (see Suites); empty means all.
	Suites []string
	// Codecs are codec IDs; empty means every codec a suite applies to. An
	// ID that no selected suite applies to gives no row.
	Codecs []string
}

// Run runs the selected suites against those of codecs they apply to (pass
// codec/all's Codecs for every codec serbench ships; Options.Codecs filters
// them by ID, rows keep the order of codecs). It returns an error for an
// unknown suite or codec ID, an unreadable embedded suite, or when ctx is
// done; a library's failure on a case is data in the rows, not an error.
func Run(ctx context.Context, codecs []codec.Codec, opts Options) ([]Row, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var ids []string
	for _, c := range codecs {
		ids = append(ids, c.Info().ID)
	}
	for _, id := range opts.Codecs {
		if !slices.Contains(ids, id) {
			return nil, fmt.Errorf("conformance: unknown codec %q (valid: %s)", id, strings.Join(ids, ", "))
		}
	}
	var selected []codec.Codec
	for _, c := range codecs {
		if len(opts.Codecs) == 0 || slices.Contains(opts.Codecs, c.Info().ID) {
			selected = append(selected, c)
		}
	}
	var rows []Row
	for _, s := range Suites {
		if len(opts.Suites) > 0 && !slices.Contains(opts.Suites, s) {
			continue
		}
		var (
			got []Row
			err error
		)
		switch s {
		case SuiteJSON:
			got, err = runJSON(ctx, selected)
		case SuiteCBOR:
			got, err = runCBOR(ctx, selected)
		case SuiteMsgpack:
			got, err = runMsgpack(ctx, selected)
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, got...)
	}
	return rows, nil
}

// errPanic is wrapped by the error guard returns for a recovered panic.
var errPanic = errors.New("panic")

// guard calls f and turns a panic into an error wrapping errPanic that
// carries the panic value and the first frames of its stack.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v (%s)", errPanic, p, firstFrames(debug.Stack(), 3))
		}
	}()
	return f()
}

// firstFrames returns the function names of the first n frames of stack
// below the panic, joined by " < ", to say where a library panicked.
func firstFrames(stack []byte, n int) string {
	lines := strings.Split(string(stack), "\n")
	var out []string
	after := false
	for _, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			after = true
			continue
		}
		if !after || strings.HasPrefix(l, "\t") || l == "" {
			continue
		}
		if i := strings.LastIndex(l, "("); i > 0 {
			l = l[:i]
		}
		out = append(out, l)
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, " < ")
}

// short makes s printable on one line (document.TerminalText: invalid
// UTF-8, control characters and bidirectional controls as escapes) and
// cuts it to about n bytes, marking the cut.
func short(s string, n int) string {
	s = document.TerminalText(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func isPanic(err error) bool { return errors.Is(err, errPanic) }
