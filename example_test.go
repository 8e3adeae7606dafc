package serbench_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec/all"
)

// Load a sample from a JSON file and see which codecs round-trip it, with
// the encoded size of each. Check logs this table in a test.
func ExampleOptions_Fidelity() {
	order, err := serbench.FromJSON[Order](filepath.Join("testdata", "order.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := serbench.Options{Codecs: []string{"encoding/json", "msgpack", "cbor", "protobuf"}}.Fidelity(order)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(f)
	// Output:
	// codec          result  size  first difference or reason
	// encoding/json  kept    118
	// msgpack        kept    77
	// cbor           kept    98
	// protobuf       n/a           protobuf: not supported: no message for *serbench_test.Order in schema/proto/serbench.proto (serbench init -type Order -codegen protobuf generates the code for your type)
}

// Options.Codecs takes what `serbench run -codecs` takes: codec IDs and
// groups, mixed. "group:msgpack" is every MessagePack codec of the
// registry ("msgpack" alone is the vmihailenco codec): the default
// registry holds only the default set, and codec/all's holds every codec.
// Nil Codecs would be the default set.
func ExampleOptions_groups() {
	order, err := serbench.FromJSON[Order](filepath.Join("testdata", "order.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := serbench.Options{Registry: all.Registry(), Codecs: []string{"encoding/json", "group:msgpack", "cbor"}}.Fidelity(order)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(f)
	// Output:
	// codec                   result  size  first difference or reason
	// encoding/json           kept    118
	// msgpack                 kept    77
	// msgpack/array           kept    40
	// msgp                    n/a           msgp: not supported: no generated type for *serbench_test.Order (only the five seed scenarios and the annotation workloads have one) (serbench init -type Order -codegen msgp generates the code for your type)
	// msgpackgen              n/a           msgpackgen: not supported: no generated code for *serbench_test.Order (msgpackgen ran on scenario/seeds.go only; other types would fall back to reflection)
	// msgpackgen/array        n/a           msgpackgen/array: not supported: no generated code for *serbench_test.Order (msgpackgen ran on scenario/seeds.go only; other types would fall back to reflection)
	// ugorji/msgpack          kept    77
	// shamaton-msgpack        kept    77
	// shamaton-msgpack/array  kept    40
	// cbor                    kept    98
}

func ExampleFromJSON() {
	order, err := serbench.FromJSON[Order](filepath.Join("testdata", "order.json"))
	fmt.Println(order.ID, order.Items, order.Total, err)
	_, err = serbench.FromJSON[Order](filepath.Join("testdata", "order-bad-type.json"))
	fmt.Println(err)
	// Output:
	// ord-1842 3 129.95 <nil>
	// serbench: testdata/order-bad-type.json:3:12: at /items: JSON string does not fit Go int
}

// A real API response holds members your type leaves out: FromJSON lists
// every one, with its line, column and JSON Pointer; FromJSONWith can
// ignore them, as encoding/json does, and says which.
func ExampleFromJSONWith() {
	path := filepath.Join("testdata", "response.json")
	_, err := serbench.FromJSON[Order](path)
	fmt.Println(err)
	order, ignored, err := serbench.FromJSONWith[Order](path, serbench.SampleOptions{IgnoreUnknown: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(order.ID, order.Items, order.Total, len(ignored), "members ignored")
	// Output:
	// serbench: testdata/response.json: 3 members that *serbench_test.Order has no field for (serbench.FromJSONWith with SampleOptions{IgnoreUnknown: true} ignores them, as encoding/json does):
	// 	testdata/response.json:5:3: /lines
	// 	testdata/response.json:12:3: /a~1b~0c
	// 	testdata/response.json:13:3: /_links
	// ord-1842 3 129.95 3 members ignored
}

// In a _test.go file next to your type; run it with
// `go test -bench Codecs -count 10 | benchstat -col /codec -` or save the
// output and run `serbench show` on it.
func ExampleBenchmark() {
	sample := &Order{ID: "ord-1842", Customer: "Ada Lovelace", Items: 3, Paid: true, Total: 129.95}
	benchmarkCodecs := func(b *testing.B) {
		serbench.Benchmark(b, sample, serbench.Options{Codecs: []string{"encoding/json", "sonic", "msgpack", "cbor"}})
	}
	_ = benchmarkCodecs // func BenchmarkCodecs(b *testing.B) { ... }
}

// In a _test.go file next to your type: logs the fidelity table and fails
// only if encoding/json does not round-trip the order.
func ExampleCheck() {
	sample := &Order{ID: "ord-1842", Customer: "Ada Lovelace", Items: 3, Paid: true, Total: 129.95}
	testCodecs := func(t *testing.T) {
		serbench.Check(t, sample, serbench.Options{Require: []string{"encoding/json"}})
	}
	_ = testCodecs // func TestCodecs(t *testing.T) { ... }
}
