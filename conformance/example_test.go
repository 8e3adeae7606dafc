package conformance_test

import (
	"context"
	"fmt"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/conformance"
)

// Run msgpack-test-suite against the msgpack codec and print its counts.
func ExampleRun() {
	rows, err := conformance.Run(context.Background(), all.Registry().All(), conformance.Options{
		Suites: []string{conformance.SuiteMsgpack},
		Codecs: []string{"msgpack"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		for _, c := range r.Checks {
			fmt.Printf("%s %s: %s %d of %d\n", r.Suite, r.Codec, c.Name, c.Passed, c.Total)
		}
	}
	// Output:
	// msgpack-test-suite msgpack: encodings decoded to the value 222 of 233
	// msgpack-test-suite msgpack: encoder output listed 78 of 78
}
