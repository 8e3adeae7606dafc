package codec

// Outcome is what a checked round trip of one value through one codec
// gave: the one status that serbench's documents and tables use for a
// round trip (package probe's cells, `serbench list`'s seed checks,
// results.Row.Outcome). Its String and JSON form is the word of the
// constant ("kept", "changed", "error", "n/a"), as serbench-fidelity/v1's
// "status" field holds it (docs/reference.md, "JSON documents").
type Outcome string

// The four outcomes of a round trip.
const (
	Kept    Outcome = "kept"    // the decoded value equals the original
	Changed Outcome = "changed" // it decoded without error but differs
	Failed  Outcome = "error"   // marshal, unmarshal or conversion failed, or the library panicked
	NA      Outcome = "n/a"     // the codec cannot be given this value's type (no schema, say)
)

// String returns o's word: "kept", "changed", "error" or "n/a".
func (o Outcome) String() string { return string(o) }
