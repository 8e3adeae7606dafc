package evolve

import (
	"errors"
	"reflect"
	"testing"
)

func TestClassify(t *testing.T) {
	v1 := []string{"amount", "customer", "id", "note", "status"}
	written := Record{"id": uint64(7), "customer": "ada", "amount": int64(5_000_000_000), "status": int64(1), "note": "n"}
	tests := []struct {
		name       string
		written    Record
		readerHas  []string
		got        Record
		err        error
		want       Outcome
		wantDetail []string
	}{
		{"every field arrives", written, v1, written, nil, OK, nil},
		{"reader field the writer lacks stays zero", Record{"id": uint64(7)}, []string{"id", "coupon"}, Record{"id": uint64(7), "coupon": ""}, nil, OK, nil},
		{"writer field the reader lacks", Record{"id": uint64(7), "coupon": "X"}, []string{"id"}, Record{"id": uint64(7)}, nil, FieldLost,
			[]string{"coupon: lost, the reader has no such field"}},
		{"zero writer field the reader lacks is not lost", Record{"id": uint64(7), "coupon": ""}, []string{"id"}, Record{"id": uint64(7)}, nil, OK, nil},
		{"field arrives as zero", written, v1, Record{"id": uint64(7), "customer": "ada", "amount": int64(5_000_000_000), "status": int64(1), "note": ""}, nil, FieldLost,
			[]string{`note: wrote "n", read the zero value`}},
		{"truncated integer", written, v1, Record{"id": uint64(7), "customer": "ada", "amount": int64(705032704), "status": int64(1), "note": "n"}, nil, WrongValue,
			[]string{"amount: wrote 5000000000, read 705032704"}},
		{"wrong beats lost", written, v1, Record{"id": uint64(8), "customer": "ada", "amount": int64(5_000_000_000), "status": int64(1), "note": ""}, nil, WrongValue,
			[]string{"id: wrote 7, read 8", `note: wrote "n", read the zero value`}},
		{"value where nothing was written", Record{"id": uint64(7)}, []string{"id", "note"}, Record{"id": uint64(7), "note": "?"}, nil, WrongValue,
			[]string{`note: wrote nothing, read "?"`}},
		{"signed and unsigned compare by value", Record{"id": uint64(7)}, []string{"id"}, Record{"id": int64(7)}, nil, OK, nil},
		{"negative is not a large unsigned", Record{"id": uint64(1<<64 - 1)}, []string{"id"}, Record{"id": int64(-1)}, nil, WrongValue,
			[]string{"id: wrote 18446744073709551615, read -1"}},
		{"error", written, v1, nil, errors.New("boom"), Error, []string{"boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, detail := Classify(tt.written, tt.readerHas, tt.got, tt.err)
			if got != tt.want || !reflect.DeepEqual(detail, tt.wantDetail) {
				t.Errorf("Classify = %q %q, want %q %q", got, detail, tt.want, tt.wantDetail)
			}
		})
	}
}

// fakeSide is a Side whose decoder returns what read says.
func fakeSide(fields []string, read func([]byte) (Record, error)) Side {
	return Side{
		Fields: fields,
		Encode: func(r Record) ([]byte, error) { return []byte("x"), nil },
		Decode: func(b []byte) (Record, func() ([]byte, error), error) {
			r, err := read(b)
			return r, func() ([]byte, error) { return b, nil }, err
		},
	}
}

// A decoder that panics gives an error cell, not a crash.
func TestRunRecoversPanics(t *testing.T) {
	ch := Changes()[0]
	c := Codec{ID: "fake", Schema: "none", Sides: func(Change) (Side, Side, error) {
		v1 := fakeSide(fieldsOf(new(Order)), func([]byte) (Record, error) { return ch.V1, nil })
		v2 := fakeSide(fieldsOf(ch.newV2()), func([]byte) (Record, error) { panic("index out of range") })
		return v1, v2, nil
	}}
	cells, err := Run([]Codec{c}, []Change{ch})
	if err != nil {
		t.Fatal(err)
	}
	if o := cells[0].OldToNew; o.Outcome != Error || o.Detail[0] != "evolve: decoder panicked: index out of range" {
		t.Errorf("old→new = %+v, want an error naming the panic", o)
	}
}

// Known cells of the real codecs: these are the behaviours the table
// reports, checked here so that a change in a library or in this package
// that alters them fails.
func TestKnownCells(t *testing.T) {
	rows := []Codec{MsgpCodec(), ProtobufCodec(), FlatBuffersCodec(), WireCodec(), WireSameVersionCodec()}
	cells, err := Run(rows, Changes())
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]Cell{}
	for _, c := range cells {
		at[c.Codec+" "+c.Change] = c
	}
	for _, tt := range []struct {
		cell               string
		oldToNew, newToOld Outcome
		unknown            Survival
	}{
		{"msgp int32-to-int64", OK, Error, NotAsked},
		{"msgp field-renamed", FieldLost, FieldLost, DoesNotKeep},
		{"protobuf field-added", OK, FieldLost, Survives},
		{"protobuf field-renamed", OK, OK, NotAsked},
		{"protobuf int32-to-int64", OK, WrongValue, DoesNotKeep},
		{"protobuf field-removed", FieldLost, OK, NotAsked},
		{"flatbuffers field-renamed", OK, OK, NotAsked},
		{"flatbuffers field-added", OK, FieldLost, DoesNotKeep},
		{"flatbuffers int32-to-int64", WrongValue, WrongValue, DoesNotKeep},
		{"flatbuffers field-reordered", OK, OK, NotAsked},
		{"wire field-added", OK, Error, NotAsked},
		{"wire field-removed", FieldLost, Error, NotAsked},
		{"wire/same-version field-reordered", Error, Error, NotAsked},
		{"wire/same-version field-renamed", OK, OK, NotAsked},
		{"wire/same-version int32-to-int64", OK, Error, NotAsked},
	} {
		c, ok := at[tt.cell]
		if !ok {
			t.Errorf("%s: no such cell", tt.cell)
			continue
		}
		if c.OldToNew.Outcome != tt.oldToNew || c.NewToOld.Outcome != tt.newToOld || c.Unknown != tt.unknown {
			t.Errorf("%s = %q / %q, unknown %q; want %q / %q, unknown %q", tt.cell,
				c.OldToNew.Outcome, c.NewToOld.Outcome, c.Unknown, tt.oldToNew, tt.newToOld, tt.unknown)
		}
	}
}

func TestSelect(t *testing.T) {
	if _, err := SelectChanges([]string{"field-added", "nope"}); err == nil {
		t.Error("SelectChanges accepted an unknown change")
	}
	got, err := SelectChanges([]string{"enum-value-added"})
	if err != nil || len(got) != 1 || got[0].ID != "enum-value-added" {
		t.Errorf("SelectChanges = %v, %v", got, err)
	}
	if _, err := SelectCodecs([]Codec{WireCodec()}, []string{"protobuf"}); err == nil {
		t.Error("SelectCodecs accepted a codec not in the list")
	}
}
