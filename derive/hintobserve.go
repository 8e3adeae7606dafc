package derive

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"time"
)

// The observation of a sample for FindHints: the values of each field
// that a hint may tighten, walked once.

// fieldKey is one field of one message.
type fieldKey struct {
	m *msg
	i int
}

// fieldStats are the values of one field seen in the sample.
type fieldStats struct {
	f    *field
	path string
	n    int            // values seen
	strs map[string]int // string values and their counts, up to MaxEnumValues+1 distinct
	many bool           // more than MaxEnumValues distinct strings
	// notIdent, notTime: a string value that is not a short identifier,
	// not an RFC 3339 time; offset: a time with an offset other than Z.
	notIdent, notTime, offset bool
	min, max                  int64 // integers
	umax                      uint64
	nonZero                   bool
	fractional, big           bool // floats: a value with a fraction, one past 2^53
	// Avro bytes of the values as they are (string, float or double), as
	// Unix microseconds (strings that parse as times; 0 for others) and
	// as integers (integral floats).
	avroNow, avroMicros, avroInt int
}

// avroDelta is the change in Avro bytes of the sample when the field
// takes the type of a hint of kind k.
func (fs *fieldStats) avroDelta(k HintKind) int {
	switch k {
	case HintEnum:
		return fs.n - fs.avroNow // an index below 64 is one byte
	case HintTimestamp:
		return fs.avroMicros - fs.avroNow
	case HintIntegralFloat:
		return fs.avroInt - fs.avroNow
	}
	return 0 // int and long: the same zigzag varint
}

// avroVarint is the length of the Avro (zigzag varint) encoding of x.
func avroVarint(x int64) int {
	u := uint64(x<<1) ^ uint64(x>>63)
	n := 1
	for ; u >= 0x80; u >>= 7 {
		n++
	}
	return n
}

// observation is what FindHints saw of a sample: each field's values
// (fieldStats), in the order the walk first met the fields.
type observation struct {
	byField map[fieldKey]*fieldStats
	order   []fieldKey
}

// identValue is a value an enum can take: a short identifier.
var identValue = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,31}$`)

func (obs *observation) walk(m *msg, v reflect.Value, path string, depth int) error {
	if depth > MaxHintDepth {
		return fmt.Errorf("derive: hints: the value nests deeper than MaxHintDepth (%d levels) at %s", MaxHintDepth, orRoot(path))
	}
	for i, f := range m.fields {
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil {
			continue // a nil embedded pointer
		}
		fpath := path + fieldPath(m.goT, f.index)
		if err := obs.value(fieldKey{m, i}, f, f.typ, fv, fpath, depth); err != nil {
			return err
		}
	}
	return nil
}

// value records fv, the value of field f (or an element of it) of type t.
func (obs *observation) value(k fieldKey, f *field, t *typ, fv reflect.Value, path string, depth int) error {
	switch t.kind {
	case kStruct:
		return obs.walk(t.msg, fv, path, depth+1)
	case kPtr:
		if fv.IsNil() {
			return nil // absent: no value to look at
		}
		if t.elem.kind == kStruct {
			return obs.walk(t.elem.msg, fv.Elem(), path, depth+1)
		}
		if t != f.typ || t.elem.kind == kSlice {
			return nil // a list's or map's pointer elements, and a pointer to a list, are not hinted
		}
		return obs.value(k, f, t.elem, fv.Elem(), path, depth)
	case kSlice, kArray:
		switch t.elem.kind {
		case kStruct, kPtr, kString:
			elemPath := path + "[]"
			if t.elem.kind == kString {
				elemPath = path // the hint is the field's
			}
			for i := range fv.Len() {
				if err := obs.value(k, f, t.elem, fv.Index(i), elemPath, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case kMap:
		if ek := t.elem.kind; ek == kStruct || ek == kPtr {
			it := fv.MapRange()
			for it.Next() {
				if err := obs.value(k, f, t.elem, it.Value(), path+"{}", depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case kString, kInt, kUint, kFloat:
	default:
		return nil
	}
	fs := obs.byField[k]
	if fs == nil {
		fs = &fieldStats{f: f, path: path, strs: map[string]int{}, min: math.MaxInt64, max: math.MinInt64}
		obs.byField[k] = fs
		obs.order = append(obs.order, k)
	}
	fs.n++
	switch t.kind {
	case kString:
		s := fv.String()
		if _, seen := fs.strs[s]; seen || len(fs.strs) <= MaxEnumValues {
			fs.strs[s]++
		} else {
			fs.many = true
		}
		if s != "" && !identValue.MatchString(s) {
			fs.notIdent = true
		}
		fs.avroNow += avroVarint(int64(len(s))) + len(s)
		micros := int64(0)
		if s != "" {
			if tm, err := time.Parse(time.RFC3339Nano, s); err != nil {
				fs.notTime = true
			} else {
				micros = tm.UnixMicro()
				if _, off := tm.Zone(); off != 0 || !strings.HasSuffix(s, "Z") {
					fs.offset = true
				}
			}
		}
		fs.avroMicros += avroVarint(micros)
	case kInt:
		x := fv.Int()
		fs.min, fs.max = min(fs.min, x), max(fs.max, x)
		fs.nonZero = fs.nonZero || x != 0
	case kUint:
		x := fv.Uint()
		fs.umax = max(fs.umax, x)
		fs.nonZero = fs.nonZero || x != 0
	case kFloat:
		x := fv.Float()
		fs.avroNow += t.bits / 8
		fs.avroInt += avroVarint(int64(x)) // used only when every value is integral
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x):
			fs.fractional = true
		case math.Abs(x) > 1<<53:
			fs.big = true
		default:
			fs.min, fs.max = min(fs.min, int64(x)), max(fs.max, int64(x))
		}
		fs.nonZero = fs.nonZero || x != 0
	}
	return nil
}

// fieldPath is ".Base.ID": the Go names along index in struct type t.
func fieldPath(t reflect.Type, index []int) string {
	var sb strings.Builder
	for _, i := range index {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		sf := t.Field(i)
		sb.WriteString("." + sf.Name)
		t = sf.Type
	}
	return sb.String()
}
