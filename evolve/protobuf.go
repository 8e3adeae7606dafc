package evolve

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/serbench/serbench/evolve/pbv1"
	"github.com/serbench/serbench/evolve/pbv2"
)

// pbV2 maps each change to its v2 message of schema/proto/evolve/order_v2.proto.
var pbV2 = map[string]func() proto.Message{
	"field-added":      func() proto.Message { return new(pbv2.OrderAdded) },
	"field-removed":    func() proto.Message { return new(pbv2.OrderRemoved) },
	"field-renamed":    func() proto.Message { return new(pbv2.OrderRenamed) },
	"int32-to-int64":   func() proto.Message { return new(pbv2.OrderWidened) },
	"field-reordered":  func() proto.Message { return new(pbv2.OrderReordered) },
	"enum-value-added": func() proto.Message { return new(pbv2.OrderEnum) },
}

// ProtobufCodec returns the row of google.golang.org/protobuf with the
// messages generated from schema/proto/evolve (packages pbv1 and pbv2):
// fields correspond by number, and proto.Unmarshal keeps the fields it
// does not know as unknown fields that proto.Marshal writes again.
func ProtobufCodec() Codec {
	return Codec{ID: "protobuf", Schema: ".proto field numbers", Sides: func(ch Change) (Side, Side, error) {
		newV2, ok := pbV2[ch.ID]
		if !ok {
			return Side{}, Side{}, fmt.Errorf("evolve: protobuf: no v2 message for change %q", ch.ID)
		}
		return protoSide(func() proto.Message { return new(pbv1.Order) }), protoSide(newV2), nil
	}}
}

// meaning is the field meaning of a proto field: its name, but for v2's
// memo, which is note renamed.
func meaning(fd protoreflect.FieldDescriptor) string {
	if n := string(fd.Name()); n != "memo" {
		return n
	}
	return "note"
}

func protoSide(newM func() proto.Message) Side {
	fds := newM().ProtoReflect().Descriptor().Fields()
	var fields []string
	for i := range fds.Len() {
		fields = append(fields, meaning(fds.Get(i)))
	}
	return Side{
		Fields: sortedCopy(fields),
		Encode: func(r Record) ([]byte, error) {
			m := newM()
			pr := m.ProtoReflect()
			for i := range fds.Len() {
				fd := fds.Get(i)
				x, ok := r[meaning(fd)]
				if !ok {
					continue
				}
				v, err := protoValue(fd, x)
				if err != nil {
					return nil, err
				}
				pr.Set(fd, v)
			}
			return proto.MarshalOptions{Deterministic: true}.Marshal(m)
		},
		Decode: func(data []byte) (Record, func() ([]byte, error), error) {
			m := newM()
			if err := proto.Unmarshal(data, m); err != nil {
				return nil, nil, err
			}
			again := func() ([]byte, error) { return proto.MarshalOptions{Deterministic: true}.Marshal(m) }
			pr := m.ProtoReflect()
			r := Record{}
			for i := range fds.Len() {
				fd := fds.Get(i)
				v := pr.Get(fd)
				switch fd.Kind() {
				case protoreflect.Uint64Kind:
					r[meaning(fd)] = v.Uint()
				case protoreflect.Int32Kind, protoreflect.Int64Kind:
					r[meaning(fd)] = v.Int()
				case protoreflect.EnumKind:
					r[meaning(fd)] = int64(v.Enum())
				case protoreflect.StringKind:
					r[meaning(fd)] = v.String()
				default:
					return nil, nil, fmt.Errorf("evolve: protobuf: field %s has kind %s", fd.Name(), fd.Kind())
				}
			}
			return r, again, nil
		},
	}
}

func protoValue(fd protoreflect.FieldDescriptor, x any) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.Uint64Kind:
		if u, ok := x.(uint64); ok {
			return protoreflect.ValueOfUint64(u), nil
		}
	case protoreflect.Int32Kind:
		if i, ok := x.(int64); ok {
			return protoreflect.ValueOfInt32(int32(i)), nil
		}
	case protoreflect.Int64Kind:
		if i, ok := x.(int64); ok {
			return protoreflect.ValueOfInt64(i), nil
		}
	case protoreflect.EnumKind:
		if i, ok := x.(int64); ok {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(i)), nil
		}
	case protoreflect.StringKind:
		if s, ok := x.(string); ok {
			return protoreflect.ValueOfString(s), nil
		}
	}
	return protoreflect.Value{}, fmt.Errorf("evolve: protobuf: field %s (%s) cannot hold %T %v", fd.Name(), fd.Kind(), x, x)
}
