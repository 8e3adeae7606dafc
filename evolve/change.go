package evolve

import (
	"fmt"

	"github.com/serbench/serbench/internal/pick"
)

// Change is one way v2 differs from v1.
type Change struct {
	// ID is the change's stable name ("field-added").
	ID string `json:"id"`
	// Doc says what v2 changes, in words.
	Doc string `json:"doc"`
	// newV2 returns a new pointer to the Go struct of v2.
	newV2 func() any
	// V1 and V2 are the values a v1 and a v2 writer write.
	V1 Record `json:"v1_value"`
	V2 Record `json:"v2_value"`
}

// v1Value is what every v1 writer writes.
func v1Value() Record {
	return Record{"id": uint64(1001), "customer": "ada", "amount": int64(4200), "status": int64(Paid), "note": "leave at the door"}
}

// v2Value returns v1Value with the fields of v2's type and set changed.
func v2Value(drop string, set Record) Record {
	r := v1Value()
	delete(r, drop)
	for k, v := range set {
		r[k] = v
	}
	return r
}

// Changes returns the six changes, in the order reports show them. The
// values are fixed: v1 writes order 1001 of 4200 cents, status Paid, note
// "leave at the door"; each v2 writes the same plus what its change
// allows (a coupon, an amount of 5000000000 that needs 64 bits, status
// Refunded).
func Changes() []Change {
	return []Change{
		{ID: "field-added", Doc: "v2 adds coupon (string)",
			newV2: func() any { return new(OrderAdded) }, V1: v1Value(), V2: v2Value("", Record{"coupon": "SPRING10"})},
		{ID: "field-removed", Doc: "v2 drops note",
			newV2: func() any { return new(OrderRemoved) }, V1: v1Value(), V2: v2Value("note", nil)},
		{ID: "field-renamed", Doc: "v2 renames note to memo",
			newV2: func() any { return new(OrderRenamed) }, V1: v1Value(), V2: v2Value("", nil)},
		{ID: "int32-to-int64", Doc: "v2 widens amount from int32 to int64 and writes 5000000000",
			newV2: func() any { return new(OrderWidened) }, V1: v1Value(), V2: v2Value("", Record{"amount": int64(5_000_000_000)})},
		{ID: "field-reordered", Doc: "v2 declares the fields in another order (note, status, id, amount, customer)",
			newV2: func() any { return new(OrderReordered) }, V1: v1Value(), V2: v2Value("", nil)},
		{ID: "enum-value-added", Doc: "v2's status gains refunded (2), which the v2 writer writes",
			newV2: func() any { return new(OrderEnum) }, V1: v1Value(), V2: v2Value("", Record{"status": int64(Refunded)})},
	}
}

// ChangeIDs returns the IDs of Changes, in order.
func ChangeIDs() []string {
	var ids []string
	for _, c := range Changes() {
		ids = append(ids, c.ID)
	}
	return ids
}

// SelectChanges returns the changes named by ids, in the order given; nil
// or empty ids means all. Unknown IDs are one error naming them and the
// valid ones.
func SelectChanges(ids []string) ([]Change, error) {
	if len(ids) == 0 {
		return Changes(), nil
	}
	out, err := pick.ByID(Changes(), func(c Change) string { return c.ID }, ids, "change")
	if err != nil {
		return nil, fmt.Errorf("evolve: %w", err)
	}
	return out, nil
}
