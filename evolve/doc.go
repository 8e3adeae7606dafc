// Package evolve measures what each codec does when the two ends of a
// connection run different versions of one type: the schema-evolution
// matrix of `serbench evolve` (docs/reference.md, "serbench evolve").
//
// The type is an order event (Order: ID, Customer, Amount in cents,
// Status, Note). Version v1 is the same for every change; each Change has
// its own v2 that differs from v1 in exactly one way:
//
//	field-added       v2 adds Coupon string
//	field-removed     v2 drops Note
//	field-renamed     v2 calls Note Memo (same meaning, new name)
//	int32-to-int64    v2 widens Amount from int32 to int64
//	field-reordered   v2 declares the fields in another order
//	enum-value-added  v2's Status gains Refunded (2)
//
// Every codec describes the two versions in its natural schema: struct
// tags for the reflection codecs (json/msgpack/cbor tags; gob uses the Go
// field names), .proto files with field numbers for protobuf
// (schema/proto/evolve), .fbs files with field ids for FlatBuffers
// (schema/flatbuffers/evolve), and wire's format-version byte for wire.
//
// A cell sends one value written by one version to a reader of the other,
// in both directions, and classifies what the reader got (Classify):
//
//   - ok: the reader returned no error and every field the reader's
//     version has holds exactly what the writer wrote into the field of
//     the same meaning (zero when the writer's version has no such field),
//     and the writer wrote nothing the reader's version cannot hold.
//   - ok, field lost: no error and no field holds a value the writer did
//     not write, but a non-zero value the writer wrote is missing: the
//     reader's version has no field for it (a newer writer's extra field)
//     or its field arrived as zero (a rename matched by name).
//   - silently wrong value: no error, but some field holds a non-zero value
//     that differs from what the writer wrote into that field (a truncated
//     integer, a positional misread).
//   - error: the reader returned an error (or panicked; the panic is
//     recovered and reported as the error).
//
// Fields correspond by meaning, not by name: v2's Memo is v1's Note.
//
// Unknown-field survival is asked of the new writer → old reader direction
// when it lost something or read a wrong value: the old reader's value is
// encoded again by the old version and decoded by the new one. "yes" when
// that gives back every value the new writer wrote, "no" otherwise, "n/a"
// when the old reader got everything (nothing was unknown to it) or
// failed.
package evolve
