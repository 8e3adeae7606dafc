// Package serbench measures serialization codecs on your own Go type, from
// `go test`. Next to the type, in a _test.go file:
//
//	func BenchmarkCodecs(b *testing.B) { serbench.Benchmark(b, &Order{...}) }
//	func TestCodecs(t *testing.T)      { serbench.Check(t, &Order{...}) }
//
// Benchmark runs one sub-benchmark per codec and operation, named
//
//	BenchmarkCodecs/codec=<id>/op=marshal|unmarshal|convert
//
// so that `go test -bench . -count 10 | benchstat -col /codec` compares the
// codecs, and `serbench show` or `serbench compare` print the same tables,
// Markdown and HTML as `serbench run`. Every codec first round-trips the
// value and the result is compared with the original (fidelity.Diff unless
// Options.Compare says otherwise); a codec that loses data is still timed,
// with the key lossy=true in its name and the first difference in the test
// log. A codec that cannot take the type at all is skipped with the reason.
//
// Check prints the same round-trip findings as a table with t.Log and fails
// only for the codecs listed in Options.Require.
//
// The built-in codecs are those of `serbench list`; Options.Codecs picks
// them with the grammar of `serbench run -codecs` (IDs and groups such as
// "json" or "default"), and by default the same default set runs. This
// package links only the default set's libraries (codec/defaults.Registry);
// Options.Registry set to codec/all.Registry() links and offers every
// codec:
//
//	serbench.Options{Registry: all.Registry(), Codecs: []string{"json"}}
//
// Groups stand for the registry's codecs, and naming a codec that the
// default registry lacks is an error that names codec/all. The code
// generators (easyjson, msgp, protobuf, ...) built in work only on
// serbench's own payloads; for your type, generate the code and add it
// with Msgp, EasyJSON, Proto, ProtoDerived or codec.Funcs in Options.Extra. `serbench
// init -type Order` writes a starter serbench_test.go. FromJSON loads a
// sample value from a JSON file; FromJSONWith can ignore the members your
// type has no field for, as encoding/json does.
//
// Nothing here panics on bad input: a nil or cyclic value is an error of the
// whole benchmark or check, and a codec that fails, or panics, on the type
// is that codec's finding.
package serbench
