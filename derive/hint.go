package derive

import (
	"fmt"
	"reflect"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/serbench/serbench/codec"
)

// HintKind is the kind of a schema-tightening hint.
type HintKind string

// The hints FindHints gives.
const (
	// HintEnum: a string field (or []string) whose values are a few short
	// identifiers, each seen several times.
	HintEnum HintKind = "enum"
	// HintTimestamp: a string field whose values all parse as RFC 3339.
	HintTimestamp HintKind = "timestamp"
	// HintNarrowInt: a 64-bit integer field whose values all fit 32 bits
	// or fewer.
	HintNarrowInt HintKind = "narrower integer"
	// HintIntegralFloat: a float field whose values are all integers.
	HintIntegralFloat HintKind = "integral float"
)

// Limits of the hint detection.
const (
	// MaxEnumValues is the most distinct values an enum hint takes: 16.
	MaxEnumValues = 16
	// MinEnumCount is the fewest values a string field needs in the sample
	// for an enum hint: 4. With fewer, a repeated value says nothing.
	MinEnumCount = 4
	// MinNumberCount is the fewest values a number field needs for a
	// hint: 2. One value says little about a field's range.
	MinNumberCount = 2
	// MaxHintDepth caps the nesting FindHints walks: 1,000 levels; deeper
	// is an error (a cycle through pointers reaches it).
	MaxHintDepth = 1000
)

// Hint is one field of a sample whose schema type could be tighter, with
// the protobuf sizes of the whole sample before and after that one change,
// measured on the sample through the derived descriptor (dynamicpb).
type Hint struct {
	// Path locates the field from the root type (".Status",
	// ".Lines[].Unit"), where the walk first met it. A struct type used
	// at several places is one message: its values are counted together.
	Path string
	// GoType is the field's Go type, as reflect prints it.
	GoType string
	Kind   HintKind
	// Seen is what the sample showed: "3 distinct values in 12",
	// "5 non-empty values, all RFC 3339", "8 values, all in [0, 1200]:
	// fit int16".
	Seen string
	// Proto and Avro are the suggested types: "enum LineUnit",
	// "google.protobuf.Timestamp", "int32"; "enum", "long
	// timestamp-micros", "int".
	Proto, Avro string
	// Before and After are the bytes of the whole sample marshalled by
	// proto.Marshal on the derived descriptor, and on the same descriptor
	// with only this field changed to Proto.
	Before, After int
	// AvroBefore is the bytes of the whole sample marshalled by
	// hamba/avro on the derived .avsc schema (as avro/derived does), and
	// AvroAfter that size plus, for every value of this field, the
	// difference the Avro binary encoding gives between the current type
	// and Avro (a string's length prefix and bytes, a float's 4 or 8
	// bytes, against the zigzag varint of the enum index, the Unix
	// microseconds or the integer; an int and a long are the same
	// varint). That is exact but for the byte-count prefix hamba/avro
	// writes before each block of up to 100 array or map items, whose
	// varint may gain or lose a byte when the block's size crosses 64 or
	// 8192 bytes. Both are -1 when avro/derived cannot take the type or
	// the sample (uint64, say); AvroErr then says why.
	AvroBefore, AvroAfter int
	AvroErr               error
	// MarshalBefore and MarshalAfter are proto.Marshal's ns/op on those
	// two messages; zero until Hints.TimeMarshal measures them.
	MarshalBefore, MarshalAfter float64

	before, after proto.Message
}

// Hints are FindHints's result, in field order.
type Hints []Hint

// FindHints looks at the values of sample, a pointer to a struct (slices
// of structs and nested structs included), for fields whose schema type
// could be tighter: strings that look like an enum or carry RFC 3339
// times, 64-bit integers that fit 32 bits, floats that are all integers.
// For each, it derives the protobuf descriptor with that one field
// changed, converts the sample to both messages (dynamicpb) and sets the
// encoded sizes, and the Avro sizes before and after (Hint.AvroBefore).
// The fields looked at are singular strings and numbers, pointers to them
// (presence fields, whose non-nil values count, as an API type with every
// field a pointer has them) and []string, in the root struct and in every
// struct reached through struct fields, slices, arrays, map values and
// non-nil pointers; map keys, maps of scalars and pointers in lists and
// maps are not.
// Errors: sample is not a
// non-nil pointer to a struct, a type DeriveProto cannot map, nesting
// deeper than MaxHintDepth.
func FindHints(sample any) (Hints, error) {
	return Options{}.FindHints(sample)
}

// FindHints is the package's FindHints with o: the fields o.Skip leaves
// out are not looked at.
func (o Options) FindHints(sample any) (Hints, error) {
	rv := reflect.ValueOf(sample)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("derive: hints are found in a non-nil pointer to a struct, not %T", sample)
	}
	ps, err := o.DeriveProto(rv.Type().Elem())
	if err != nil {
		return nil, err
	}
	obs := &observation{byField: map[fieldKey]*fieldStats{}}
	if err := obs.walk(ps.root, rv.Elem(), "", 0); err != nil {
		return nil, err
	}
	conv := newMsgConv(ps.root, ps.File, map[*msg]*msgConv{})
	before := dynamicpb.NewMessage(conv.desc)
	conv.toPB(rv.Elem(), before)
	beforeData, err := proto.Marshal(before)
	if err != nil {
		return nil, fmt.Errorf("derive: hints: the sample does not marshal: %w", err)
	}
	avroBefore, avroErr := o.avroSize(sample)
	var out Hints
	for _, k := range obs.order {
		fs := obs.byField[k]
		h, ok := fs.hint()
		if !ok {
			continue
		}
		after, err := tightened(ps, before, k, fs, &h)
		if err != nil {
			return nil, err
		}
		data, err := proto.Marshal(after)
		if err != nil {
			return nil, fmt.Errorf("derive: hints: %s: the tightened message does not marshal: %w", h.Path, err)
		}
		h.Before, h.After = len(beforeData), len(data)
		h.AvroBefore, h.AvroAfter, h.AvroErr = -1, -1, avroErr
		if avroErr == nil {
			h.AvroBefore, h.AvroAfter = avroBefore, avroBefore+fs.avroDelta(h.Kind)
		}
		h.before, h.after = before, after
		out = append(out, h)
	}
	return out, nil
}

// avroSize is the length of sample marshalled by avro/derived.
func (o Options) avroSize(sample any) (int, error) {
	b, err := o.AvroCodec().Bind(sample)
	if err != nil {
		return 0, err
	}
	v := sample
	if conv, ok := b.(codec.Converter); ok { // through the mirror type
		if v, err = conv.ToNative(sample); err != nil {
			return 0, err
		}
	}
	data, err := b.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", AvroID, err)
	}
	return len(data), nil
}
