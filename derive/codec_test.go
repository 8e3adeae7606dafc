package derive_test

import (
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/fidelity"
)

// roundTrip binds c to v, converts when the binding is a Converter,
// marshals, unmarshals and converts back.
func roundTrip(t *testing.T, c codec.Codec, v any) (any, int, error) {
	t.Helper()
	b, err := c.Bind(v)
	if err != nil {
		return nil, 0, err
	}
	in := v
	conv, isConv := b.(codec.Converter)
	if isConv {
		if in, err = conv.ToNative(v); err != nil {
			return nil, 0, err
		}
	}
	data, err := b.Marshal(in)
	if err != nil {
		return nil, 0, err
	}
	out, err := b.Unmarshal(data)
	if err != nil {
		return nil, len(data), err
	}
	if isConv {
		out, err = conv.FromNative(out)
	}
	return out, len(data), err
}

// wantDiff checks that got equals want (path "") or first differs at path.
func wantDiff(t *testing.T, want, got any, path string) {
	t.Helper()
	d := fidelity.Diff(want, got)
	var m *fidelity.Mismatch
	switch {
	case path == "" && d != nil:
		t.Error(d)
	case path != "" && (!errors.As(d, &m) || m.Path != path):
		t.Errorf("difference %v, want one at %s", d, path)
	}
}

// shipmentID is shipment with a tracking ID that an Avro long holds.
func shipmentID(id uint64) *Shipment {
	s := shipment()
	s.TrackingID = id
	return s
}

func shipment() *Shipment {
	insured := 250.5
	return &Shipment{
		Audit:      Audit{CreatedBy: "ops", Updated: time.Date(2026, 11, 23, 9, 30, 0, 123456000, time.UTC)},
		TrackingID: 1 << 63, Status: "in-transit",
		From:     Address{Street: "1 Quay", City: "Hull", Zip: "HU1"},
		To:       Address{Street: "2 Pier", City: "Cork"},
		Lines:    []Line{{SKU: "A-1", Quantity: 3, Price: 9.5}, {SKU: "B-2", Quantity: -1, Price: 0.25}},
		Labels:   map[string]string{"fragile": "yes", "dock": "4"},
		Insured:  &insured,
		Return:   &Address{City: "Hull"},
		Eta:      36*time.Hour + time.Nanosecond,
		Priority: -7, Photo: []byte{0xff, 0, 1}, Checksum: [4]byte{1, 2, 3, 4},
	}
}

func TestProtoCodec(t *testing.T) {
	tree := &Tree{Name: "root", Children: []*Tree{{Name: "a"}, {Name: "b", Children: []*Tree{{Name: "c"}}}}}
	zone := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		name string
		v    any
		diff string // "" for an exact round trip, else the path of the first difference
	}{
		{"order", &Order{ID: "ord-1", Created: time.Date(2026, 1, 2, 3, 4, 5, 6, zone), Customer: "Ada", Items: 3, Paid: true, Total: 12.5}, ""},
		{"shipment", shipment(), ""},
		{"zero shipment", &Shipment{}, ""},
		{"tree", tree, ""},
		{"empty slice", &Shipment{Lines: []Line{}}, ".Lines"},
		{"empty map", &Shipment{Labels: map[string]string{}}, ".Labels"},
		{"empty bytes", &Shipment{Photo: []byte{}}, ".Photo"},
		{"nil element", &Tree{Children: []*Tree{nil}}, ".Children[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, size, err := roundTrip(t, derive.NewProtoCodec(), tc.v)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d bytes", size)
			wantDiff(t, tc.v, out, tc.diff)
		})
	}
	// Bad input: an unmappable type, a non-struct, a foreign value.
	if _, err := derive.NewProtoCodec().Bind(&bad{}); !errors.Is(err, codec.ErrUnsupported) || !strings.Contains(err.Error(), ".Ch (chan int)") {
		t.Errorf("Bind(*bad) = %v", err)
	}
	if _, err := derive.NewProtoCodec().Bind(new(int)); !errors.Is(err, codec.ErrUnsupported) {
		t.Errorf("Bind(*int) = %v", err)
	}
	b, err := derive.NewProtoCodec().Bind(&Order{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.(codec.Converter).ToNative(&Tree{}); err == nil {
		t.Error("ToNative(*Tree) on an Order binding: no error")
	}
	if _, err := b.Unmarshal([]byte{0xff, 0xff}); err == nil {
		t.Error("Unmarshal of garbage: no error")
	}
}

// The encoded size is protobuf's: Order's 6 fields, field by field.
func TestProtoCodecSize(t *testing.T) {
	o := &Order{ID: "ab", Items: 1, Paid: true}
	// id: tag + len + 2 bytes; items: tag + 1; paid: tag + 1; the zero
	// time, empty customer and zero total are left out.
	if _, size, err := roundTrip(t, derive.NewProtoCodec(), o); err != nil || size != 4+2+2 {
		t.Errorf("size %d, err %v, want 8 bytes", size, err)
	}
}

func TestAvroCodec(t *testing.T) {
	tree := &Tree{Name: "root", Children: []*Tree{{Name: "a"}}}
	for _, tc := range []struct {
		name string
		v    any
		diff string // "" for an exact round trip
		err  string // a marshal error
	}{
		{"order", &Order{ID: "ord-1", Created: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), Customer: "Ada", Items: 3, Paid: true, Total: 12.5}, "", ""},
		{"nanoseconds", &Order{Created: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}, ".Created", ""},
		{"tree", tree, ".Children[0].Children", ""}, // nil decodes as empty
		{"empty", &Tree{Children: []*Tree{}}, "", ""},
		{"uint64 of 2^63", shipment(), "", "avro/derived: .TrackingID: 9223372036854775808 is 2^63 or more, which an Avro long (signed) cannot hold"},
		{"uint64 below 2^63", shipmentID(1<<63 - 1), "", ""},
		{"array and lists of lists", &Nested{Matrix: [][]float64{{1}}, Cube: [2][][]int{{{1, 2}}, {{3}}}}, ".Groups", ""}, // nil decodes as empty
		{"time wrappers", stampedEvent(), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := roundTrip(t, derive.NewAvroCodec(), tc.v)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one mentioning %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantDiff(t, tc.v, out, tc.diff)
		})
	}
	if _, err := derive.NewAvroCodec().Bind(&bad{}); !errors.Is(err, codec.ErrUnsupported) || !strings.Contains(err.Error(), ".IntKeys{key} (int)") {
		t.Errorf("Bind(*bad) = %v", err)
	}
}

// A codec on a message type generated from the derived schema (here a
// dynamicpb type of the same descriptor stands in for protoc-gen-go's)
// round-trips like protobuf/derived, and refuses a type whose schema no
// longer matches the generated one.
func TestCheckGenerated(t *testing.T) {
	ps, err := derive.DeriveProto(reflect.TypeFor[Shipment]())
	if err != nil {
		t.Fatal(err)
	}
	if err := derive.CheckGenerated(reflect.TypeFor[Shipment](), ps.Message); err != nil {
		t.Errorf("the schema's own descriptor: %v", err)
	}
	type Shipment struct{ TrackingID uint64 } // the same name, other fields
	err = derive.CheckGenerated(reflect.TypeFor[Shipment](), ps.Message)
	if err == nil || !strings.Contains(err.Error(), "was not generated from the schema derived from derive_test.Shipment now") {
		t.Errorf("a changed type: %v", err)
	}
	if err := derive.CheckGenerated(reflect.TypeFor[Order](), ps.Message); err == nil {
		t.Error("another type: no error")
	}
	if err := derive.CheckGenerated(reflect.TypeFor[int](), ps.Message); err == nil {
		t.Error("a non-struct type: no error")
	}
}

// TestHyperpbCodec round-trips the same values through hyperpb/derived as
// TestProtoCodec through protobuf/derived: the same wire bytes, parsed by
// hyperpb's compiled descriptor and read back.
func TestHyperpbCodec(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		if _, err := derive.NewHyperpbCodec().Bind(&Order{}); !errors.Is(err, codec.ErrUnsupported) {
			t.Errorf("Bind on %s = %v, want ErrUnsupported", runtime.GOARCH, err)
		}
		return
	}
	tree := &Tree{Name: "root", Children: []*Tree{{Name: "a"}, {Name: "b", Children: []*Tree{{Name: "c"}}}}}
	for _, tc := range []struct {
		name string
		v    any
		diff string
	}{
		{"order", &Order{ID: "ord-1", Created: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Customer: "Ada", Items: 3, Paid: true, Total: 12.5}, ""},
		{"shipment", shipment(), ""},
		{"zero shipment", &Shipment{}, ""},
		{"tree", tree, ""},
		{"empty slice", &Shipment{Lines: []Line{}}, ".Lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, size, err := roundTrip(t, derive.NewHyperpbCodec(), tc.v)
			if err != nil {
				t.Fatal(err)
			}
			_, want, err := roundTrip(t, derive.NewProtoCodec(), tc.v)
			if err != nil || size != want {
				t.Errorf("%d bytes, protobuf/derived %d (%v): want the same wire bytes", size, want, err)
			}
			wantDiff(t, tc.v, out, tc.diff)
		})
	}
	if _, err := derive.NewHyperpbCodec().Bind(&bad{}); !errors.Is(err, codec.ErrUnsupported) {
		t.Errorf("Bind(*bad) = %v", err)
	}
	b, err := derive.NewHyperpbCodec().Bind(&Order{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Unmarshal([]byte{0xff, 0xff}); err == nil {
		t.Error("Unmarshal of garbage: no error")
	}
	if _, err := b.Marshal(&Order{}); err == nil {
		t.Error("Marshal of a Go value, not a parsed message: no error")
	}
}

// Lists and maps inside lists and maps go through wrapper messages and
// come back whole through protobuf/derived and hyperpb/derived; the
// schema names each wrapper after the field that holds it.
func TestProtoWrappers(t *testing.T) {
	v := &Nested{
		Matrix: [][]float64{{1, 2}, {3}},
		Groups: map[string][]Line{"a": {{SKU: "x", Quantity: 2, Price: 1.5}}, "b": {{SKU: "y"}}},
		Attrs:  map[string]map[string]string{"tags": {"k": "v", "": "empty key"}, "more": {"a": "b"}},
		Rows:   []map[string]int32{{"one": 1}, {"two": 2, "three": 3}},
		Cube:   [2][][]int{{{1, 2}, {3}}, {{4}}},
		Deep:   map[string]map[string][]*Line{"d": {"e": {{SKU: "z", Quantity: -1}}}},
	}
	ps, err := derive.DeriveProto(reflect.TypeFor[Nested]())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"repeated NestedMatrixItem matrix = 1;", "map<string, NestedGroupsValue> groups = 2;",
		"message NestedAttrsValue {\n  map<string, string> value = 1;", "message NestedDeepValueValue {\n  repeated Line value = 1;",
		"message NestedCubeItem {\n  repeated NestedCubeItemItem value = 1;"} {
		if !strings.Contains(ps.Text, want) {
			t.Errorf("the schema lacks %q:\n%s", want, ps.Text)
		}
	}
	codecs := []codec.Codec{derive.NewProtoCodec()}
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64" {
		codecs = append(codecs, derive.NewHyperpbCodec())
	}
	for _, c := range codecs {
		out, _, err := roundTrip(t, c, v)
		if err != nil {
			t.Fatalf("%s: %v", c.Info().ID, err)
		}
		wantDiff(t, v, out, "")
	}
	// An empty inner map comes back nil: the loss is named at its path.
	out, _, err := roundTrip(t, derive.NewProtoCodec(), &Nested{Attrs: map[string]map[string]string{"k": {}}})
	if err != nil {
		t.Fatal(err)
	}
	wantDiff(t, &Nested{Attrs: map[string]map[string]string{"k": {}}}, out, `.Attrs["k"]`)
	if l, ok := ps.LossAt(`.Attrs["k"]`); !ok || l.Path != ".Attrs{}" {
		t.Errorf("LossAt(.Attrs[\"k\"]) = %v, %v; want the loss at .Attrs{}", l, ok)
	}
}

// Timestamp is an API client's time wrapper, with a method of its own.
type Timestamp struct{ time.Time }

func (t Timestamp) String() string { return t.Format(time.RFC3339) }

// ObjectTime is a platform's: a pointer to it is a presence field.
type ObjectTime struct {
	time.Time
}

// StampedEvent holds time wrappers in every position a time can be.
type StampedEvent struct {
	Name    string                `json:"name"`
	At      Timestamp             `json:"at"`
	Deleted *ObjectTime           `json:"deleted,omitempty"`
	History []Timestamp           `json:"history"`
	ByStep  map[string]ObjectTime `json:"by_step"`
	Plain   time.Time             `json:"plain"`
}

func stampedEvent() *StampedEvent {
	at := time.Date(2026, 11, 23, 9, 30, 0, 123456000, time.UTC)
	return &StampedEvent{Name: "deploy", At: Timestamp{at}, Deleted: &ObjectTime{at.Add(time.Hour)},
		History: []Timestamp{{at.Add(-time.Hour)}, {at.Add(-2 * time.Hour)}},
		ByStep:  map[string]ObjectTime{"build": {at.Add(time.Minute)}}, Plain: at}
}

// A time wrapper maps as time.Time in every format and derived codec.
func TestTimeWrappers(t *testing.T) {
	typ := reflect.TypeFor[StampedEvent]()
	for _, f := range derive.Formats {
		s, err := derive.Derive(typ, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if strings.Contains(s.Text, "record Timestamp") || strings.Contains(s.Text, "message Timestamp") || strings.Contains(s.Text, "message ObjectTime") || strings.Contains(s.Text, "table ObjectTime") {
			t.Errorf("%s: a time wrapper became a message of its own:\n%s", f, s.Text)
		}
		n := 0
		for _, l := range s.Losses {
			if strings.Contains(l.Lost, "time zone") {
				n++
			}
		}
		if n != 5 {
			t.Errorf("%s: %d time losses, want one per time field (5): %v", f, n, s.Losses)
		}
	}
	exactDerived(t, derive.Options{}, stampedEvent(), stampedEvent())
}

// ObjectMeta is a platform's metadata, embedded with a JSON name.
type ObjectMeta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	At     ObjectTime        `json:"at"`
}

// Ref is embedded through a pointer without a name: its fields are
// flattened.
type Ref struct {
	Kind, APIVersion, UID string
	Generation            int64
}

type ConfigMap struct {
	ObjectMeta `json:"metadata"`
	*Ref
	Data map[string]string `json:"data"`
}

// An embedded struct with a JSON name is one field, nested as
// encoding/json nests it; one without is flattened, and a flattened
// embedded pointer is one loss, not one per field.
func TestEmbeddedNamed(t *testing.T) {
	typ := reflect.TypeFor[ConfigMap]()
	for _, f := range derive.Formats {
		s, err := derive.Derive(typ, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		nested := map[derive.Format]string{derive.Proto: "  ObjectMeta metadata = 1;", derive.Avro: `{"name": "metadata", "type": {`, derive.FlatBuffers: "  metadata: ObjectMeta;"}[f]
		if !strings.Contains(s.Text, nested) {
			t.Errorf("%s: no nested %q:\n%s", f, nested, s.Text)
		}
		var embedded []string
		for _, l := range s.Losses {
			if strings.Contains(l.Lost, "embedded pointer") {
				embedded = append(embedded, l.Path+" "+l.GoType)
			}
		}
		if len(embedded) != 1 || embedded[0] != ".Ref *derive_test.Ref" {
			t.Errorf("%s: embedded pointer losses %q, want one at .Ref", f, embedded)
		}
	}
	v := &ConfigMap{ObjectMeta: ObjectMeta{Name: "cm", Labels: map[string]string{"app": "web"}, At: ObjectTime{time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)}},
		Ref: &Ref{Kind: "ConfigMap", UID: "u-1", Generation: 3}, Data: map[string]string{"k": "v"}}
	exactDerived(t, derive.Options{}, v, v)
}

// exactDerived round-trips v through the derived codecs with o and wants
// want back exactly (hyperpb/derived is skipped where it does not build).
func exactDerived(t *testing.T, o derive.Options, v, want any) {
	t.Helper()
	for _, c := range []codec.Codec{o.ProtoCodec(), o.AvroCodec(), o.HyperpbCodec()} {
		t.Run(c.Info().ID, func(t *testing.T) {
			out, _, err := roundTrip(t, c, v)
			if err != nil {
				if strings.Contains(err.Error(), "amd64 and arm64 only") {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			wantDiff(t, want, out, "")
		})
	}
}

// Aliased has pointers to slices: lists with presence.
type Aliased struct {
	Aliases *[]string `json:"aliases"`
	Lines   *[]Line   `json:"lines"`
	None    *[]string `json:"none"`
}

// A pointer to a slice keeps nil apart from a list in every derived
// codec; a pointer to a nil or empty slice is the loss each names.
func TestPointerToSlice(t *testing.T) {
	v := &Aliased{Aliases: &[]string{"a", "b"}, Lines: &[]Line{{SKU: "x", Quantity: 2}}}
	exactDerived(t, derive.Options{}, v, v)
	empty := &Aliased{Aliases: &[]string{}, Lines: new([]Line)}
	for _, tc := range []struct {
		c    codec.Codec
		path string // the first difference
	}{
		{derive.NewProtoCodec(), ".Aliases"}, // &[]string{} comes back as a pointer to nil
		{derive.NewAvroCodec(), ".Lines"},    // new([]Line) comes back as a pointer to empty
	} {
		out, _, err := roundTrip(t, tc.c, empty)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.(*Aliased); got.Aliases == nil || got.Lines == nil || got.None != nil {
			t.Errorf("%s: presence lost: %+v", tc.c.Info().ID, got)
		}
		wantDiff(t, empty, out, tc.path)
		if l, ok := tc.c.(interface {
			LossAt(any, string) (derive.Loss, bool)
		}).LossAt(empty, tc.path); !ok || !strings.Contains(l.Lost, "a pointer to a") {
			t.Errorf("%s: LossAt(%s) = %v, %v", tc.c.Info().ID, tc.path, l, ok)
		}
	}
}

// idTree is recursive and has a uint64: hamba/avro needs a mirror type,
// which reflect.StructOf cannot make refer to itself.
type idTree struct {
	ID       uint64    `json:"id"`
	Children []*idTree `json:"children"`
}

// forkedRepo has the shape of an API client's repository: every field a
// pointer, a time wrapper, and its parent and source repositories.
type forkedRepo struct {
	Name   *string     `json:"name,omitempty"`
	Pushed *Timestamp  `json:"pushed_at,omitempty"`
	Parent *forkedRepo `json:"parent,omitempty"`
	Source *forkedRepo `json:"source,omitempty"`
}

// DeriveAvro refuses what avro/derived refuses, with the same error.
func TestAvroSchemaAgreesWithRow(t *testing.T) {
	_, err := derive.DeriveAvro(reflect.TypeFor[idTree]())
	var de *derive.Error
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "derive: avsc: derive_test.idTree: .Children[] (derive_test.idTree): avro/derived: a recursive type with a uint64 or uint field .ID (uint64)") ||
		!strings.Contains(err.Error(), "serbench init -skip Children") {
		t.Fatalf("DeriveAvro(idTree) = %v, want a *derive.Error naming the recursion, its uint64 field and the -skip path", err)
	}
	if _, berr := derive.NewAvroCodec().Bind(&idTree{}); !errors.Is(berr, codec.ErrUnsupported) || !strings.Contains(berr.Error(), err.Error()) {
		t.Errorf("Bind(*idTree) = %v, want n/a with DeriveAvro's error", berr)
	}
	// An API client's repository: its parent and source are repositories,
	// and its times a wrapper. The error names the wrapper and, per
	// recursive field, the -skip path, which then makes the schema.
	_, err = derive.DeriveAvro(reflect.TypeFor[forkedRepo]())
	for _, want := range []string{"a time wrapper field .Pushed (*derive_test.Timestamp)", "serbench init -skip Parent,", "serbench init -skip Source,"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DeriveAvro(forkedRepo) = %v, want it to say %q", err, want)
		}
	}
	if _, err := (derive.Options{Skip: []string{"Parent", "Source"}}).DeriveAvro(reflect.TypeFor[forkedRepo]()); err != nil {
		t.Errorf("DeriveAvro(forkedRepo) with the advised Skip: %v", err)
	}
	// A recursive type hamba/avro takes as it is needs no mirror.
	if _, err := derive.DeriveAvro(reflect.TypeFor[Tree]()); err != nil {
		t.Errorf("DeriveAvro(Tree): %v", err)
	}
}
