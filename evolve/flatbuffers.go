package evolve

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/evolve/fbv1"
	"github.com/serbench/serbench/evolve/fbv2"
)

// fbTable is one table of schema/flatbuffers/evolve as the generated
// code writes and reads it.
type fbTable struct {
	fields []string
	build  func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT
	read   func(buf []byte) Record
}

// Record values for the builders; a field r lacks is written as zero.
func rU(r Record, f string) uint64 { u, _ := r[f].(uint64); return u }
func rI(r Record, f string) int64  { i, _ := r[f].(int64); return i }
func rS(r Record, f string) string { s, _ := r[f].(string); return s }

var fbV1 = fbTable{
	fields: []string{"amount", "customer", "id", "note", "status"},
	build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
		cu, no := b.CreateString(rS(r, "customer")), b.CreateString(rS(r, "note"))
		fbv1.OrderStart(b)
		fbv1.OrderAddId(b, rU(r, "id"))
		fbv1.OrderAddCustomer(b, cu)
		fbv1.OrderAddAmount(b, int32(rI(r, "amount")))
		fbv1.OrderAddStatus(b, fbv1.Status(rI(r, "status")))
		fbv1.OrderAddNote(b, no)
		return fbv1.OrderEnd(b)
	},
	read: func(buf []byte) Record {
		o := fbv1.GetRootAsOrder(buf, 0)
		return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": int64(o.Amount()),
			"status": int64(o.Status()), "note": string(o.Note())}
	},
}

var fbV2 = map[string]fbTable{
	"field-added": {
		fields: []string{"amount", "coupon", "customer", "id", "note", "status"},
		build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
			cu, no, co := b.CreateString(rS(r, "customer")), b.CreateString(rS(r, "note")), b.CreateString(rS(r, "coupon"))
			fbv2.OrderAddedStart(b)
			fbv2.OrderAddedAddId(b, rU(r, "id"))
			fbv2.OrderAddedAddCustomer(b, cu)
			fbv2.OrderAddedAddAmount(b, int32(rI(r, "amount")))
			fbv2.OrderAddedAddStatus(b, fbv2.Status(rI(r, "status")))
			fbv2.OrderAddedAddNote(b, no)
			fbv2.OrderAddedAddCoupon(b, co)
			return fbv2.OrderAddedEnd(b)
		},
		read: func(buf []byte) Record {
			o := fbv2.GetRootAsOrderAdded(buf, 0)
			return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": int64(o.Amount()),
				"status": int64(o.Status()), "note": string(o.Note()), "coupon": string(o.Coupon())}
		},
	},
	"field-removed": {
		fields: []string{"amount", "customer", "id", "status"},
		build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
			cu := b.CreateString(rS(r, "customer"))
			fbv2.OrderRemovedStart(b)
			fbv2.OrderRemovedAddId(b, rU(r, "id"))
			fbv2.OrderRemovedAddCustomer(b, cu)
			fbv2.OrderRemovedAddAmount(b, int32(rI(r, "amount")))
			fbv2.OrderRemovedAddStatus(b, fbv2.Status(rI(r, "status")))
			return fbv2.OrderRemovedEnd(b)
		},
		read: func(buf []byte) Record {
			o := fbv2.GetRootAsOrderRemoved(buf, 0)
			return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": int64(o.Amount()), "status": int64(o.Status())}
		},
	},
	"field-renamed": {
		fields: []string{"amount", "customer", "id", "note", "status"},
		build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
			cu, me := b.CreateString(rS(r, "customer")), b.CreateString(rS(r, "note"))
			fbv2.OrderRenamedStart(b)
			fbv2.OrderRenamedAddId(b, rU(r, "id"))
			fbv2.OrderRenamedAddCustomer(b, cu)
			fbv2.OrderRenamedAddAmount(b, int32(rI(r, "amount")))
			fbv2.OrderRenamedAddStatus(b, fbv2.Status(rI(r, "status")))
			fbv2.OrderRenamedAddMemo(b, me)
			return fbv2.OrderRenamedEnd(b)
		},
		read: func(buf []byte) Record {
			o := fbv2.GetRootAsOrderRenamed(buf, 0)
			return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": int64(o.Amount()),
				"status": int64(o.Status()), "note": string(o.Memo())}
		},
	},
	"int32-to-int64": {
		fields: []string{"amount", "customer", "id", "note", "status"},
		build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
			cu, no := b.CreateString(rS(r, "customer")), b.CreateString(rS(r, "note"))
			fbv2.OrderWidenedStart(b)
			fbv2.OrderWidenedAddId(b, rU(r, "id"))
			fbv2.OrderWidenedAddCustomer(b, cu)
			fbv2.OrderWidenedAddAmount(b, rI(r, "amount"))
			fbv2.OrderWidenedAddStatus(b, fbv2.Status(rI(r, "status")))
			fbv2.OrderWidenedAddNote(b, no)
			return fbv2.OrderWidenedEnd(b)
		},
		read: func(buf []byte) Record {
			o := fbv2.GetRootAsOrderWidened(buf, 0)
			return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": o.Amount(),
				"status": int64(o.Status()), "note": string(o.Note())}
		},
	},
	"field-reordered": {
		fields: []string{"amount", "customer", "id", "note", "status"},
		build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
			no, cu := b.CreateString(rS(r, "note")), b.CreateString(rS(r, "customer"))
			fbv2.OrderReorderedStart(b)
			fbv2.OrderReorderedAddNote(b, no)
			fbv2.OrderReorderedAddStatus(b, fbv2.Status(rI(r, "status")))
			fbv2.OrderReorderedAddId(b, rU(r, "id"))
			fbv2.OrderReorderedAddAmount(b, int32(rI(r, "amount")))
			fbv2.OrderReorderedAddCustomer(b, cu)
			return fbv2.OrderReorderedEnd(b)
		},
		read: func(buf []byte) Record {
			o := fbv2.GetRootAsOrderReordered(buf, 0)
			return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": int64(o.Amount()),
				"status": int64(o.Status()), "note": string(o.Note())}
		},
	},
	"enum-value-added": {
		fields: []string{"amount", "customer", "id", "note", "status"},
		build: func(b *flatbuffers.Builder, r Record) flatbuffers.UOffsetT {
			cu, no := b.CreateString(rS(r, "customer")), b.CreateString(rS(r, "note"))
			fbv2.OrderEnumStart(b)
			fbv2.OrderEnumAddId(b, rU(r, "id"))
			fbv2.OrderEnumAddCustomer(b, cu)
			fbv2.OrderEnumAddAmount(b, int32(rI(r, "amount")))
			fbv2.OrderEnumAddStatus(b, fbv2.StatusV2(rI(r, "status")))
			fbv2.OrderEnumAddNote(b, no)
			return fbv2.OrderEnumEnd(b)
		},
		read: func(buf []byte) Record {
			o := fbv2.GetRootAsOrderEnum(buf, 0)
			return Record{"id": o.Id(), "customer": string(o.Customer()), "amount": int64(o.Amount()),
				"status": int64(o.Status()), "note": string(o.Note())}
		},
	},
}

// FlatBuffersCodec returns the row of github.com/google/flatbuffers with
// the code flatc generates from schema/flatbuffers/evolve (packages fbv1
// and fbv2): fields correspond by id. A reader reads the fields it knows in
// place; the generated Go code has no way to keep the others, so a decode →
// encode pass drops them. The FlatBuffers runtime does not validate a
// buffer: reading a slot with another type than the one written reads
// whatever bytes are there.
func FlatBuffersCodec() Codec {
	return Codec{ID: "flatbuffers", Schema: ".fbs field ids", Sides: func(ch Change) (Side, Side, error) {
		t2, ok := fbV2[ch.ID]
		if !ok {
			return Side{}, Side{}, fmt.Errorf("evolve: flatbuffers: no v2 table for change %q", ch.ID)
		}
		return fbSide(fbV1), fbSide(t2), nil
	}}
}

func fbSide(t fbTable) Side {
	enc := func(r Record) ([]byte, error) {
		b := flatbuffers.NewBuilder(128)
		b.Finish(t.build(b, r))
		return b.FinishedBytes(), nil
	}
	return Side{
		Fields: t.fields,
		Encode: enc,
		Decode: func(data []byte) (Record, func() ([]byte, error), error) {
			r := t.read(data)
			return r, func() ([]byte, error) { return enc(r) }, nil
		},
	}
}
