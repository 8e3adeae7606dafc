package serbench

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/fidelity"
)

// Status is what a codec did with a value: a codec.Outcome, the one
// vocabulary of a round trip in serbench's tables and documents, written
// as its word (kept, changed, error, n/a).
type Status = codec.Outcome

// The statuses of a Finding.
const (
	// OK (kept): the value came back equal to the original.
	OK = codec.Kept
	// Lossy (changed): the value came back different; Finding.Err names
	// the first difference. Benchmark still times the codec.
	Lossy = codec.Changed
	// Error: the codec failed to marshal the value or to unmarshal its
	// own output, or panicked; Finding.Err says which and why. Benchmark
	// skips the codec.
	Error = codec.Failed
	// NA (n/a): the codec refused the value's type (codec.ErrUnsupported:
	// no schema or generated code for it, say); Finding.Err says why.
	// Benchmark skips the codec.
	NA = codec.NA
)

// untimed reports whether Benchmark skips a codec of status s: it cannot
// take the value (Error, NA).
func untimed(s Status) bool { return s == Error || s == NA }

// Finding is the round trip of a value through one codec.
type Finding struct {
	Codec  string
	Status Status
	// Size is the encoded value in bytes; 0 when the codec could not
	// marshal it.
	Size int
	// Err is nil for OK; the difference for Lossy; the reason for Error
	// and NA.
	Err error
	// Required is true when Options.Require names the codec.
	Required bool
	// Losses are what the codec's schema, derived from the value's type,
	// can lose, field by field, whether or not this value shows it: set
	// for the derived codecs (DerivedCodecs) that could derive one.
	Losses []derive.Loss

	ops []bench.Op
}

// Failed reports whether the finding fails Check and Benchmark: a required
// codec that is not OK.
func (f Finding) Failed() bool { return f.Required && f.Status != OK }

// Fidelity is one Finding per codec, in the order the codecs run.
type Fidelity []Finding

// String is the table Check logs: one line per codec with its status, its
// encoded size in bytes and the difference or reason; required codecs are
// marked with '*'. A reason of several lines (a derived schema's error,
// one line per field at fault) goes on as many lines, under the first.
func (f Fidelity) String() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "codec\tresult\tsize\tfirst difference or reason")
	for _, x := range f {
		id := x.Codec
		if x.Required {
			id += " *"
		}
		size := ""
		if x.Size > 0 {
			size = fmt.Sprint(x.Size)
		}
		var why []string
		if x.Err != nil {
			for _, l := range strings.Split(x.Err.Error(), "\n") {
				if l = strings.Join(strings.Fields(l), " "); l != "" {
					why = append(why, l)
				}
			}
		}
		if len(why) == 0 {
			why = []string{""}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", id, x.Status, size, why[0])
		for _, l := range why[1:] {
			fmt.Fprintf(tw, "\t\t\t%s\n", l)
		}
	}
	tw.Flush()
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Losses is the table Check logs after String when a derived codec's
// schema has lossy mappings: one line per codec and distinct loss (Go
// type, the schema's type and what is lost), in the order first met,
// with the shortest path of a field that has it and how many more do
// ("(+3 more)"; Finding.Losses lists them all); "" when there are none.
func (f Fidelity) Losses() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	n := 0
	for _, x := range f {
		type row struct {
			l    derive.Loss
			more int
		}
		var rows []*row
		byLoss := map[[3]string]*row{}
		for _, l := range x.Losses {
			k := [3]string{l.GoType, l.Type, l.Lost}
			r := byLoss[k]
			if r == nil {
				r = &row{l: l}
				byLoss[k] = r
				rows = append(rows, r)
				continue
			}
			r.more++
			if len(l.Path) < len(r.l.Path) {
				r.l.Path = l.Path
			}
		}
		for _, r := range rows {
			if n == 0 {
				fmt.Fprintln(tw, "codec\tfield\tGo type\tschema type\tlost")
			}
			n++
			path := r.l.Path
			if r.more > 0 {
				path += fmt.Sprintf(" (+%d more)", r.more)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", x.Codec, path, r.l.GoType, r.l.Type, r.l.Lost)
		}
	}
	tw.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

// Fidelity round-trips v through every codec of o and compares each result
// with v; it times nothing. v is a pointer to a value of your type (a
// non-pointer is copied). The error is for v itself (nil, a nil pointer, a
// cycle, nesting deeper than MaxDepth) or for invalid options; what a codec
// does with v is a Finding, never an error.
func (o Options) Fidelity(v any) (Fidelity, error) {
	p, err := o.resolve()
	if err != nil {
		return nil, err
	}
	sample, err := sampleOf(v)
	if err != nil {
		return nil, err
	}
	// The schema codecs give back the sample with the Skip fields zero.
	omitted, err := p.derive.Omit(sample)
	if err != nil {
		return nil, fmt.Errorf("serbench: %w", err)
	}
	skipCompare := func(_, got any) error { return p.compare(omitted, got) }
	out := make(Fidelity, len(p.codecs))
	for i, c := range p.codecs {
		compare := p.compare
		if p.skipping[c.Info().ID] {
			compare = skipCompare
		}
		out[i] = probe(c, sample, compare)
		out[i].Required = p.required[out[i].Codec]
		if out[i].Status == Lossy && unexportedPath(out[i].Err) {
			out[i].Err = fmt.Errorf("%w (an unexported field: codecs that use reflection never see it)", out[i].Err)
		}
		if out[i].Status == Lossy {
			out[i].Err = explainLoss(c, sample, out[i].Err)
		}
		if e, ok := c.(lossExplainer); ok && !untimed(out[i].Status) {
			out[i].Losses = e.Losses(sample)
		}
		if untimed(out[i].Status) {
			out[i].Err = initHint(out[i].Codec, sample, out[i].Err)
		}
	}
	return out, nil
}

// initGenerators are, by codec ID, the serbench init -codegen values that
// generate code for a user's own type for a codegen codec whose stock
// code has only serbench's own types.
var initGenerators = map[string]string{"protobuf": "protobuf", "vtprotobuf": "protobuf,vtprotobuf", "flatbuffers": "flatbuffers", "msgp": "msgp", "easyjson": "easyjson"}

// initHint adds to a codegen codec's refusal of sample's type the
// serbench init command that generates the code for it; err as it is for
// another codec, another error, or one that already says what to run.
func initHint(id string, sample any, err error) error {
	g, ok := initGenerators[id]
	if !ok || !errors.Is(err, codec.ErrUnsupported) || strings.Contains(err.Error(), "serbench init") {
		return err
	}
	t := reflect.TypeOf(sample)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" {
		return err
	}
	return fmt.Errorf("%w (serbench init -type %s -codegen %s generates the code for your type)", err, initTypeFlag(t), g)
}

// initTypeFlag is t named as serbench init -type takes it from the folder
// of the package whose code called serbench (the first function on the
// stack outside this package, the testing package and the runtime): the
// bare name for a type of that package (or of its _test package), the
// import-path form ("example.com/apiclient.User", which init takes from
// any folder) for a type of another package, an alias of one included,
// or when no such caller is on the stack (a benchmark's goroutine).
func initTypeFlag(t reflect.Type) string {
	if t.PkgPath() == "" {
		return t.Name()
	}
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if pkg := funcPackage(f.Function); pkg != "" && pkg != selfPackage && pkg != "testing" && pkg != "runtime" && !strings.HasPrefix(pkg, "reflect") && !strings.HasPrefix(pkg, "github.com/serbench/serbench/") {
			if pkg == t.PkgPath() || strings.TrimSuffix(pkg, "_test") == t.PkgPath() {
				return t.Name()
			}
			break
		}
		if !more {
			break
		}
	}
	return t.PkgPath() + "." + t.Name()
}

// selfPackage is this package's import path.
var selfPackage = reflect.TypeFor[Options]().PkgPath()

// funcPackage is the import path of the package of a function named as
// runtime.Frame.Function gives it ("example.com/me.TestX.func1",
// "example.com/me.(*T).M"), or "".
func funcPackage(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// unexportedPath reports whether err is a fidelity.Mismatch whose path
// goes through an unexported struct field (".inner.n").
func unexportedPath(err error) bool {
	var m *fidelity.Mismatch
	if !errors.As(err, &m) {
		return false
	}
	for _, seg := range strings.Split(m.Path, ".")[1:] {
		if r, _ := utf8.DecodeRuneInString(seg); unicode.IsLower(r) || r == '_' {
			return true
		}
	}
	return false
}

// lossExplainer is a codec whose derived schema can say what its mapping
// loses (the derived codecs: derive.NewProtoCodec, ...).
type lossExplainer interface {
	LossAt(sample any, path string) (derive.Loss, bool)
	Losses(sample any) []derive.Loss
}

// explainLoss adds to err, a lossy codec's difference, what the codec's
// derived schema loses at that field, when c says.
func explainLoss(c codec.Codec, sample any, err error) error {
	e, ok := c.(lossExplainer)
	var m *fidelity.Mismatch
	if !ok || !errors.As(err, &m) {
		return err
	}
	if l, ok := e.LossAt(sample, m.Path); ok {
		return fmt.Errorf("%w (the derived %s schema maps %s to %s: %s)", err, l.Format, l.GoType, l.Type, l.Lost)
	}
	return err
}

// probe prepares c on sample through bench.Prepare and classifies the
// outcome: NA when a step refused the type (codec.ErrUnsupported), Error
// when one failed or when the codec or compare panicked.
func probe(c codec.Codec, sample any, compare func(want, got any) error) (f Finding) {
	f.Codec = c.Info().ID
	defer func() {
		if r := recover(); r != nil {
			f.Status, f.Err, f.ops = Error, fmt.Errorf("%s panicked on %T: %v", f.Codec, sample, r), nil
		}
	}()
	f.ops = bench.Prepare(c, sample, nil, compare)
	f.Status = OK
	for _, op := range f.ops {
		f.Size = max(f.Size, op.Size)
		if op.Err != nil && op.Run == nil && !untimed(f.Status) {
			// Not timed: n/a, or a step of the round trip failed.
			f.Status, f.Err = Error, op.Err
			if errors.Is(op.Err, codec.ErrUnsupported) {
				f.Status = NA
			}
		}
	}
	if untimed(f.Status) {
		f.ops = nil
		return f
	}
	for _, op := range f.ops {
		if op.Err != nil {
			f.Status, f.Err = Lossy, op.Err
			break
		}
	}
	return f
}

// Check round-trips v through the codecs of opts (at most one Options;
// none means the defaults), logs the Fidelity table with t.Log, then the
// schema-tightening hints of v's values (derive.FindHints: the fields
// whose protobuf and Avro type could be tighter, with the protobuf and
// Avro bytes of v before and after each change), and fails t
// with t.Error for each codec in Options.Require that did not round-trip
// exactly. Invalid options or an unusable v (see Fidelity) fail t with
// t.Fatal.
func Check(t testing.TB, v any, opts ...Options) {
	t.Helper()
	o, err := one(opts)
	if err != nil {
		t.Fatal(err)
	}
	f, err := o.Fidelity(v)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("round trip of %T through %d codecs (* = required):\n%s", v, len(f), f)
	if l := f.Losses(); l != "" {
		t.Logf("what the schemas derived from %T can lose, whether or not this value shows it:\n%s", v, l)
	}
	if sample, err := sampleOf(v); err == nil {
		if h := hintsText(sample, 0, derive.Options{Skip: o.Skip}); h != "" {
			t.Logf("%s", h)
		}
	}
	for _, x := range f {
		if x.Failed() {
			t.Errorf("serbench: required codec %s: %s: %v", x.Codec, x.Status, x.Err)
		}
	}
}

// one returns the single Options of a variadic argument, or the zero value.
func one(opts []Options) (Options, error) {
	switch len(opts) {
	case 0:
		return Options{}, nil
	case 1:
		return opts[0], nil
	}
	return Options{}, fmt.Errorf("serbench: %d Options given, want at most one", len(opts))
}
