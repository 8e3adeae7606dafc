package derive

import (
	"fmt"
	"path"
	"reflect"
	"strings"
)

// ProtoGo returns a Go source file of the package named pkg, imported as
// pkgPath, that converts between struct type t (declared there or in any
// other package, as an alias of another package's type is: those types
// are qualified and imported) and the message types protoc-gen-go
// generates from t's DeriveProto schema into the package imported as
// pbImport, field by field with no reflection:
//
//	func serbenchToProto(v *T) *serbenchpb.T            // a new message of v's fields
//	func serbenchFromProto(m *serbenchpb.T, v *T) error // m's fields into v, a zero value
//
// plus one pair per other message, serbenchPB<i>To<Name> and
// serbenchPB<i>From<Name> with i the message's index, and
// serbenchPBTimeTo and serbenchPBTimeFrom for time.Time: no two names
// can be the same whatever the Go types are called. The conversion keeps what the schema keeps
// and does what NewProtoCodec's conversion by reflection does: a nil or
// empty slice or map, a zero time.Time and a nil pointer are left unset;
// a nil element of a list or map becomes an empty message or a zero
// scalar; From sets a slice or map only when the message holds elements,
// allocates a nil embedded pointer only when a field under it is set, and
// fails for a list longer than a Go array. []byte, and slices and maps
// whose Go type is the message's ([]string, map[string]string, ...), are
// shared, not copied, both ways. Go field names follow protoc-gen-go's (CamelCase of the
// schema's field names, a "_" added to a name that clashes with a
// generated method). Errors: those of DeriveProto, and an *Error for an
// anonymous struct type (the generated functions need its name).
func ProtoGo(t reflect.Type, pkg, pkgPath, pbImport string) (string, error) {
	return Options{}.ProtoGo(t, pkg, pkgPath, pbImport)
}

// ProtoGo is the package's ProtoGo with o: the fields o.Skip leaves out
// are not converted.
func (o Options) ProtoGo(t reflect.Type, pkg, pkgPath, pbImport string) (string, error) {
	m, err := newMapper(t, Proto, o)
	if err != nil {
		return "", err
	}
	if _, err := m.proto(); err != nil {
		return "", err
	}
	pb := path.Base(pbImport)
	g := &protoGo{goFile: newGoFile(m, pkgPath, map[string]string{"fmt": "fmt", pbImport: pb}), pb: pb}
	for _, x := range m.b.msgs {
		g.message(x)
	}
	if err := m.err(); err != nil {
		return "", err
	}
	var out strings.Builder
	out.WriteString("\nvar _ = fmt.Errorf\n")
	out.WriteString(g.body.String())
	if g.usesTime {
		g.use("time")
		g.fixed["google.golang.org/protobuf/types/known/timestamppb"] = "timestamppb"
		out.WriteString(`
func serbenchPBTimeTo(t time.Time) *timestamppb.Timestamp {
	return &timestamppb.Timestamp{Seconds: t.Unix(), Nanos: int32(t.Nanosecond())}
}

func serbenchPBTimeFrom(ts *timestamppb.Timestamp) time.Time {
	return time.Unix(ts.GetSeconds(), int64(ts.GetNanos())).UTC()
}
`)
	}
	return g.source(pkg, "Protocol Buffers", out.String())
}

// protoGo writes the To and From functions of each message.
type protoGo struct {
	*goFile
	pb       string // the package name of protoc-gen-go's code
	body     strings.Builder
	usesTime bool
}

// to and from are the names of message x's functions: the entry points
// for the root message.
func (g *protoGo) to(x *msg) string {
	if x == g.root {
		return "serbenchToProto"
	}
	return g.fn("serbenchPB", "To", x)
}

func (g *protoGo) from(x *msg) string {
	if x == g.root {
		return "serbenchFromProto"
	}
	return g.fn("serbenchPB", "From", x)
}

// reservedGoNames are the method names protoc-gen-go gives every message;
// a field whose Go name is one of them gets a "_" appended (protogen's
// conflict resolution).
var reservedGoNames = []string{"Reset", "String", "ProtoMessage", "Marshal", "Unmarshal", "ExtensionRangeArray", "ExtensionMap", "Descriptor"}

// goCamel is protoc-gen-go's Go name of a proto identifier: words start
// at '_', at an upper-case letter and at a digit run, each word's first
// letter is upper-cased, a '_' before a lower-case letter is dropped and a
// leading '_' becomes 'X' ("created_at" is CreatedAt, "_x" is XX, "a1b"
// is A1B).
func goCamel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' && i == 0:
			b.WriteByte('X')
		case c == '_' && i+1 < len(s) && isLower(s[i+1]):
		case c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			if isLower(c) {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
			for i+1 < len(s) && isLower(s[i+1]) {
				i++
				b.WriteByte(s[i])
			}
		}
	}
	return b.String()
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// goNames returns the Go names protoc-gen-go gives the fields of x, in
// order: CamelCase, then "_" appended while the name or its getter clashes
// with a method or an earlier field; a proto3 optional field's synthetic
// oneof ("_name") takes its name too.
func (g *protoGo) goNames(x *msg) []string {
	used := map[string]bool{}
	for _, n := range reservedGoNames {
		used[n] = true
	}
	unique := func(name string, getter bool) string {
		for used[name] || (getter && used["Get"+name]) {
			name += "_"
		}
		used[name] = true
		used["Get"+name] = getter
		return name
	}
	seen := map[string]string{}
	names := make([]string, len(x.fields))
	for i, f := range x.fields {
		name, _ := g.name(f, seen)
		names[i] = unique(goCamel(name), true)
		if f.typ.kind == kPtr && f.typ.elem.kind != kStruct && f.typ.elem.kind != kTime {
			unique(goCamel("_"+name), false)
		}
	}
	return names
}

// message writes the To and From functions of message x.
func (g *protoGo) message(x *msg) {
	if !g.named(x, "Protocol Buffers") {
		return
	}
	gt, mt := g.goType(x.goT), g.pb+"."+goCamel(x.name)
	var to, from strings.Builder
	for i, name := range g.goNames(x) {
		f := x.fields[i]
		expr, guards, allocs := g.fieldPath(x, f)
		code := g.toField(f.typ, expr, "m."+name)
		if len(guards) > 0 {
			code = fmt.Sprintf("if %s {\n%s}\n", strings.Join(guards, " && "), code)
		}
		to.WriteString(code)
		code = g.fromField(f.typ, "m."+name, expr, f.path)
		if allocs != "" {
			code = fmt.Sprintf("if %s {\n%s%s}\n", g.present(f.typ, "m."+name), allocs, code)
		}
		from.WriteString(code)
	}
	fmt.Fprintf(&g.body, "\n// %[1]s returns a new message of v's fields.\nfunc %[1]s(v *%[2]s) *%[3]s {\nm := new(%[3]s)\n%[4]sreturn m\n}\n",
		g.to(x), gt, mt, to.String())
	fmt.Fprintf(&g.body, "\n// %[1]s sets v, a zero value, from m's fields.\nfunc %[1]s(m *%[3]s, v *%[2]s) error {\n%[4]sreturn nil\n}\n",
		g.from(x), gt, mt, from.String())
}

// present is the condition under which message field mf (of Go type t)
// is set, as proto.Message's Has says.
func (g *protoGo) present(t *typ, mf string) string {
	switch t.kind {
	case kBool:
		return mf
	case kString:
		return mf + ` != ""`
	case kBytes, kSlice, kArray, kMap:
		return "len(" + mf + ") > 0"
	case kInt, kUint, kDuration:
		return mf + " != 0"
	case kFloat:
		g.use("math")
		return fmt.Sprintf("(%s != 0 || math.Signbit(float64(%s)))", mf, mf)
	}
	return mf + " != nil" // a message, a time or an optional scalar
}

// pbScalar is the Go type of protoc-gen-go's field for scalar t.
func pbScalar(t *typ) string {
	switch t.kind {
	case kBool:
		return "bool"
	case kString:
		return "string"
	case kBytes:
		return "[]byte"
	case kInt, kUint:
		bits := 32
		if t.bits == 64 {
			bits = 64
		}
		if t.kind == kUint {
			return fmt.Sprintf("uint%d", bits)
		}
		return fmt.Sprintf("int%d", bits)
	case kFloat:
		return fmt.Sprintf("float%d", t.bits)
	case kDuration:
		return "int64"
	}
	return ""
}

// pbType is the Go type of protoc-gen-go's list element or map value for
// t (a pointer is its element).
func (g *protoGo) pbType(t *typ) string {
	if t.kind == kPtr {
		t = t.elem
	}
	switch t.kind {
	case kTime:
		g.usesTime = true
		return "*timestamppb.Timestamp"
	case kStruct:
		return "*" + g.pb + "." + goCamel(t.msg.name)
	case kSlice, kArray, kMap:
		return "*" + g.pb + "." + goCamel(g.wrapName[t])
	}
	return pbScalar(t)
}

// toValue is the message's value of Go value expr of type t, a scalar, a
// time or a struct (expr addressable).
func (g *protoGo) toValue(t *typ, expr string) string {
	switch t.kind {
	case kTime:
		g.usesTime = true
		return "serbenchPBTimeTo(" + g.timeOf(t, expr) + ")"
	case kStruct:
		return fmt.Sprintf("%s(&%s)", g.to(t.msg), expr)
	case kBytes:
		if t.fix > 0 {
			return expr + "[:]"
		}
	}
	return pbScalar(t) + "(" + expr + ")"
}

// toElem is the code that sets dst, a list element or map value, from Go
// value src of type t; a nil pointer gives an empty message or a zero.
func (g *protoGo) toElem(t *typ, src, dst string) string {
	switch t.kind {
	case kSlice, kArray, kMap: // a list or map in a list or map: its wrapper message
		w := g.local("w")
		return fmt.Sprintf("%s := new(%s)\n%s%s = %s\n", w, strings.TrimPrefix(g.pbType(t), "*"), g.toField(t, src, w+".Value"), dst, w)
	}
	if t.kind != kPtr {
		return fmt.Sprintf("%s = %s\n", dst, g.toValue(t, src))
	}
	e := t.elem
	switch e.kind {
	case kStruct, kTime:
		return fmt.Sprintf("if %[1]s != nil {\n%[2]s = %[3]s\n} else {\n%[2]s = new(%[4]s)\n}\n",
			src, dst, g.toValue(e, "(*"+src+")"), strings.TrimPrefix(g.pbType(e), "*"))
	}
	return fmt.Sprintf("if %s != nil {\n%s = %s\n}\n", src, dst, g.toValue(e, "(*"+src+")"))
}

// sameType reports whether Go slice or map type t is the message's list
// or map type, so that it can be shared: an unnamed slice or map of
// unnamed scalar types that protoc-gen-go uses as they are.
func sameType(t *typ) bool {
	same := func(e *typ) bool { p := pbScalar(e); return p != "" && e.kind != kBytes && e.goT.Name() == p }
	switch t.kind {
	case kSlice:
		return t.goT.Name() == "" && same(t.elem)
	case kMap:
		return t.goT.Name() == "" && same(t.key) && same(t.elem)
	}
	return false
}

// toField is the code that sets message field mf from Go value expr of
// type t.
func (g *protoGo) toField(t *typ, expr, mf string) string {
	switch t.kind {
	case kSlice, kArray:
		if sameType(t) {
			return fmt.Sprintf("if len(%s) > 0 {\n%s = %s\n}\n", expr, mf, expr)
		}
		s, i := g.local("s"), g.local("i")
		return fmt.Sprintf("if len(%[1]s) > 0 {\n%[2]s := make([]%[3]s, len(%[1]s))\nfor %[6]s := range %[1]s {\n%[4]s}\n%[5]s = %[2]s\n}\n",
			expr, s, g.pbType(t.elem), g.toElem(t.elem, expr+"["+i+"]", s+"["+i+"]"), mf, i)
	case kMap:
		if sameType(t) {
			return fmt.Sprintf("if len(%s) > 0 {\n%s = %s\n}\n", expr, mf, expr)
		}
		mp, k, x := g.local("mp"), g.local("k"), g.local("x")
		return fmt.Sprintf("if len(%[1]s) > 0 {\n%[2]s := make(map[%[3]s]%[4]s, len(%[1]s))\nfor %[7]s, %[8]s := range %[1]s {\n%[5]s}\n%[6]s = %[2]s\n}\n",
			expr, mp, pbScalar(t.key), g.pbType(t.elem), g.toElem(t.elem, x, fmt.Sprintf("%s[%s(%s)]", mp, pbScalar(t.key), k)), mf, k, x)
	case kPtr:
		e := t.elem
		if e.kind == kStruct {
			return fmt.Sprintf("if %s != nil {\n%s = %s(%s)\n}\n", expr, mf, g.to(e.msg), expr)
		}
		if e.kind == kSlice { // its wrapper message
			return fmt.Sprintf("if %s != nil {\n%s}\n", expr, g.toElem(e, "(*"+expr+")", mf))
		}
		if e.kind == kTime {
			return fmt.Sprintf("if %s != nil {\n%s = %s\n}\n", expr, mf, g.toValue(e, "(*"+expr+")"))
		}
		x := g.local("x")
		return fmt.Sprintf("if %s != nil {\n%s := %s\n%s = &%s\n}\n", expr, x, g.toValue(e, "(*"+expr+")"), mf, x)
	case kTime:
		return fmt.Sprintf("if !%s.IsZero() {\n%s = %s\n}\n", g.timeOf(t, expr), mf, g.toValue(t, expr))
	}
	return fmt.Sprintf("%s = %s\n", mf, g.toValue(t, expr))
}

// fromElem is the code that sets dst, of Go type t, from the message's
// value src (a list element, a map value or a singular field's value);
// path names the field in errors.
func (g *protoGo) fromElem(t *typ, src, dst, path string) string {
	switch t.kind {
	case kPtr:
		x := g.local("x")
		e := t.elem
		if e.kind == kStruct {
			return fmt.Sprintf("%[1]s := new(%[2]s)\nif %[3]s != nil {\nif err := %[4]s(%[3]s, %[1]s); err != nil {\nreturn err\n}\n}\n%[5]s = %[1]s\n",
				x, g.goType(e.goT), src, g.from(e.msg), dst)
		}
		return fmt.Sprintf("var %s %s\n%s%s = &%s\n", x, g.goType(e.goT), g.fromElem(e, src, x, path), dst, x)
	case kStruct:
		return fmt.Sprintf("if %s != nil {\nif err := %s(%s, &%s); err != nil {\nreturn err\n}\n}\n", src, g.from(t.msg), src, dst)
	case kSlice, kArray, kMap: // a list or map in a list or map: its wrapper message
		return fmt.Sprintf("if %s != nil {\n%s}\n", src, g.fromField(t, src+".Value", dst, path))
	case kTime:
		g.usesTime = true
		return fmt.Sprintf("if %s != nil {\n%s = %s\n}\n", src, dst, g.timeAs(t, "serbenchPBTimeFrom("+src+")"))
	case kBytes:
		if t.fix > 0 {
			return fmt.Sprintf("if len(%[1]s) > %[2]d {\nreturn fmt.Errorf(\"%[3]s: %%d bytes, more than the array's %[2]d\", len(%[1]s))\n}\ncopy(%[4]s[:], %[1]s)\n",
				src, t.fix, path, dst)
		}
		return fmt.Sprintf("if len(%s) > 0 {\n%s = %s(%s)\n}\n", src, dst, g.goType(t.goT), src)
	}
	return fmt.Sprintf("%s = %s(%s)\n", dst, g.goType(t.goT), src)
}

// fromField is the code that sets Go value expr of type t from message
// field mf; path names the field in errors.
func (g *protoGo) fromField(t *typ, mf, expr, path string) string {
	switch t.kind {
	case kSlice, kArray:
		if sameType(t) {
			return fmt.Sprintf("if len(%s) > 0 {\n%s = %s\n}\n", mf, expr, mf)
		}
		alloc := fmt.Sprintf("%s = make(%s, len(%s))\n", expr, g.goType(t.goT), mf)
		if t.kind == kArray {
			alloc = fmt.Sprintf("if len(%[1]s) > %[2]d {\nreturn fmt.Errorf(\"%[3]s: %%d elements, more than the array's %[2]d\", len(%[1]s))\n}\n", mf, t.fix, path)
		}
		i, x := g.local("i"), g.local("x")
		return fmt.Sprintf("if len(%[1]s) > 0 {\n%[2]sfor %[4]s, %[5]s := range %[1]s {\n%[3]s}\n}\n", mf, alloc, g.fromElem(t.elem, x, expr+"["+i+"]", path+"[]"), i, x)
	case kMap:
		if sameType(t) {
			return fmt.Sprintf("if len(%s) > 0 {\n%s = %s\n}\n", mf, expr, mf)
		}
		mp, y, k, x := g.local("mp"), g.local("y"), g.local("k"), g.local("x")
		return fmt.Sprintf("if len(%[1]s) > 0 {\n%[2]s := make(%[3]s, len(%[1]s))\nfor %[9]s, %[10]s := range %[1]s {\nvar %[4]s %[5]s\n%[6]s%[2]s[%[7]s(%[9]s)] = %[4]s\n}\n%[8]s = %[2]s\n}\n",
			mf, mp, g.goType(t.goT), y, g.goType(t.elem.goT), g.fromElem(t.elem, x, y, path+"{}"), g.goType(t.key.goT), expr, k, x)
	case kPtr:
		e := t.elem
		switch e.kind {
		case kStruct:
			x := g.local("x")
			return fmt.Sprintf("if %[1]s != nil {\n%[2]s := new(%[3]s)\nif err := %[4]s(%[1]s, %[2]s); err != nil {\nreturn err\n}\n%[5]s = %[2]s\n}\n",
				mf, x, g.goType(e.goT), g.from(e.msg), expr)
		case kTime:
			return fmt.Sprintf("if %s != nil {\n%s}\n", mf, g.fromElem(t, mf, expr, path))
		case kSlice: // its wrapper message
			x := g.local("x")
			return fmt.Sprintf("if %[1]s != nil {\n%[2]s := new(%[3]s)\n%[4]s%[5]s = %[2]s\n}\n", mf, x, g.goType(e.goT), g.fromElem(e, mf, "(*"+x+")", path), expr)
		}
		return fmt.Sprintf("if %s != nil {\n%s}\n", mf, g.fromElem(t, "(*"+mf+")", expr, path))
	}
	return g.fromElem(t, mf, expr, path)
}
