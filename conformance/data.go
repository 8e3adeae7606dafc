package conformance

import "embed"

// suites holds the vendored suite files that the harness reads; see
// testdata/README.md for their origin and licenses.
//
//go:embed testdata/JSONTestSuite/test_parsing testdata/cbor-wg-test-vectors/tests testdata/msgpack-test-suite/dist
var suites embed.FS

// The folders of suites that each runner reads.
const (
	jsonDir    = "testdata/JSONTestSuite/test_parsing"
	cborDir    = "testdata/cbor-wg-test-vectors/tests"
	msgpackDoc = "testdata/msgpack-test-suite/dist/msgpack-test-suite.json"
)
