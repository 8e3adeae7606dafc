package derive

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// copier copies a message of the derived descriptor to one of the
// tightened descriptor, converting the values of the changed field.
type copier struct {
	file    protoreflect.FileDescriptor
	target  protoreflect.FieldDescriptor
	numbers map[string]int32 // an enum hint's values
}

func (c *copier) message(src, dst protoreflect.Message) error {
	var err error
	src.Range(func(sfd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		dfd := dst.Descriptor().Fields().ByNumber(sfd.Number())
		switch {
		case sfd.IsList():
			sl, dl := v.List(), dst.Mutable(dfd).List()
			for i := range sl.Len() {
				var x protoreflect.Value
				if x, err = c.value(dfd, sl.Get(i), dl.NewElement); err != nil {
					return false
				}
				dl.Append(x)
			}
		case sfd.IsMap():
			dm := dst.Mutable(dfd).Map()
			v.Map().Range(func(key protoreflect.MapKey, x protoreflect.Value) bool {
				var y protoreflect.Value
				if y, err = c.value(dfd.MapValue(), x, dm.NewValue); err != nil {
					return false
				}
				dm.Set(key, y)
				return true
			})
		default:
			var x protoreflect.Value
			if x, err = c.value(dfd, v, func() protoreflect.Value { return dst.NewField(dfd) }); err != nil {
				return false
			}
			dst.Set(dfd, x)
		}
		return err == nil
	})
	return err
}

// value converts one singular value (or element) for dfd.
func (c *copier) value(dfd protoreflect.FieldDescriptor, v protoreflect.Value, newMsg func() protoreflect.Value) (protoreflect.Value, error) {
	if dfd == c.target {
		switch dfd.Kind() {
		case protoreflect.EnumKind:
			n, ok := c.numbers[v.String()]
			if !ok {
				return v, fmt.Errorf("no enum value for %q", v.String())
			}
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(n)), nil
		case protoreflect.MessageKind: // a timestamp
			tm, err := time.Parse(time.RFC3339Nano, v.String())
			if err != nil {
				return v, err
			}
			ts := newMsg()
			m := ts.Message()
			m.Set(m.Descriptor().Fields().ByNumber(1), protoreflect.ValueOfInt64(tm.Unix()))
			m.Set(m.Descriptor().Fields().ByNumber(2), protoreflect.ValueOfInt32(int32(tm.Nanosecond())))
			return ts, nil
		case protoreflect.Int32Kind, protoreflect.Sint32Kind:
			if f, ok := v.Interface().(float64); ok {
				return protoreflect.ValueOfInt32(int32(f)), nil
			}
			if f, ok := v.Interface().(float32); ok {
				return protoreflect.ValueOfInt32(int32(f)), nil
			}
			return protoreflect.ValueOfInt32(int32(v.Int())), nil
		case protoreflect.Uint32Kind:
			return protoreflect.ValueOfUint32(uint32(v.Uint())), nil
		case protoreflect.Int64Kind, protoreflect.Sint64Kind:
			return protoreflect.ValueOfInt64(int64(v.Float())), nil
		}
		return v, fmt.Errorf("no conversion to %s", dfd.Kind())
	}
	if dfd.Kind() != protoreflect.MessageKind && dfd.Kind() != protoreflect.GroupKind {
		return v, nil
	}
	if dfd.Message().FullName() == timestampName {
		return v, nil // the well-known type is the same in both files
	}
	x := newMsg()
	return x, c.message(v.Message(), x.Message())
}
