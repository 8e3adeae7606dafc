package evolve

// msgp generates MarshalMsg and UnmarshalMsg for the types of this file
// into types_gen.go (TestMsgpGenerated checks it); -io=false leaves out the
// streaming methods and -tests=false msgp's own tests.
//
//go:generate go tool msgp -file types.go -o types_gen.go -io=false -tests=false

// Status is the order's state, an enum stored as an integer. v1 knows
// Pending and Paid; the enum-value-added change's v2 adds Refunded.
type Status int32

// The values of Status.
const (
	Pending  Status = 0
	Paid     Status = 1
	Refunded Status = 2 // v2 of enum-value-added only
)

// Order is version v1 of the type, the same for every change. The evolve
// tag names each field's meaning, which is how fields of two versions
// correspond (Record).
type Order struct {
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
	Amount   int32  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
	Note     string `json:"note" msgpack:"note" cbor:"note" msg:"note" evolve:"note"`
}

// OrderAdded is v2 of field-added: Coupon is new.
type OrderAdded struct {
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
	Amount   int32  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
	Note     string `json:"note" msgpack:"note" cbor:"note" msg:"note" evolve:"note"`
	Coupon   string `json:"coupon" msgpack:"coupon" cbor:"coupon" msg:"coupon" evolve:"coupon"`
}

// OrderRemoved is v2 of field-removed: Note is gone.
type OrderRemoved struct {
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
	Amount   int32  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
}

// OrderRenamed is v2 of field-renamed: Note is called Memo, in Go and in
// the tags.
type OrderRenamed struct {
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
	Amount   int32  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
	Memo     string `json:"memo" msgpack:"memo" cbor:"memo" msg:"memo" evolve:"note"`
}

// OrderWidened is v2 of int32-to-int64: Amount is an int64.
type OrderWidened struct {
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
	Amount   int64  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
	Note     string `json:"note" msgpack:"note" cbor:"note" msg:"note" evolve:"note"`
}

// OrderReordered is v2 of field-reordered: the same fields, declared in
// another order.
type OrderReordered struct {
	Note     string `json:"note" msgpack:"note" cbor:"note" msg:"note" evolve:"note"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Amount   int32  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
}

// OrderEnum is v2 of enum-value-added. Its Go shape is v1's: the change is
// the new constant Refunded, which only a v2 writer uses.
type OrderEnum struct {
	ID       uint64 `json:"id" msgpack:"id" cbor:"id" msg:"id" evolve:"id"`
	Customer string `json:"customer" msgpack:"customer" cbor:"customer" msg:"customer" evolve:"customer"`
	Amount   int32  `json:"amount" msgpack:"amount" cbor:"amount" msg:"amount" evolve:"amount"`
	Status   Status `json:"status" msgpack:"status" cbor:"status" msg:"status" evolve:"status"`
	Note     string `json:"note" msgpack:"note" cbor:"note" msg:"note" evolve:"note"`
}
