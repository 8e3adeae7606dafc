package derive

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"reflect"
	"strings"
)

// FlatBuffersGo returns a Go source file of the package named pkg,
// imported as pkgPath, that converts between struct type t (declared
// there or in any other package: those types are qualified and imported)
// and the code flatc 2.0.8 generates (`flatc --go`) from t's
// DeriveFlatBuffers schema into the package imported as fbImport, with no
// intermediate value:
//
//	func serbenchMarshalFlatBuffers(b *flatbuffers.Builder, v *T) []byte // Reset, build v, Finish; the bytes are b's
//	func serbenchUnmarshalFlatBuffers(data []byte, v *T) error         // read the root table's accessors into v
//
// plus the constant serbenchFlatBuffersSchema, the schema's Digest, which
// serbench.FlatBuffersDerived compares at Bind with the schema derived
// from the type as it is then (flatc's code has no field list to check),
// and one build and one read function per table, serbenchFB<i>Build<Name>
// and serbenchFB<i>Read<Name> with i the table's index, and
// serbenchFBTimeBuild and serbenchFBTimeRead for time.Time: no two names
// can be the same whatever the Go types are called. Marshal leaves a nil
// pointer, slice or map and an empty string out of the table; Unmarshal
// sets a field only when the buffer holds it, so nil and empty slices and
// maps are told apart, and it fails for a vector longer than a Go array.
// What the schema loses (Schema.Losses) is lost here too. Errors: those of
// DeriveFlatBuffers, and an *Error for an anonymous struct type (the
// generated functions need its name) or a field whose accessor name would
// be one of the generated type's own methods (Init, Table).
func FlatBuffersGo(t reflect.Type, pkg, pkgPath, fbImport string) (string, error) {
	return Options{}.FlatBuffersGo(t, pkg, pkgPath, fbImport)
}

// FlatBuffersGo is the package's FlatBuffersGo with o: the fields o.Skip
// leaves out are not converted.
func (o Options) FlatBuffersGo(t reflect.Type, pkg, pkgPath, fbImport string) (string, error) {
	s, err := o.DeriveFlatBuffers(t)
	if err != nil {
		return "", err
	}
	m, err := newMapper(t, FlatBuffers, o)
	if err != nil {
		return "", err
	}
	g := &fbsGo{goFile: newGoFile(m, pkgPath, map[string]string{"fmt": "fmt", "github.com/google/flatbuffers/go": "flatbuffers", fbImport: path.Base(fbImport)}),
		fb: path.Base(fbImport), timeName: fbsTimeName(s.Text)}
	for _, x := range m.b.msgs {
		g.message(x)
	}
	if err := m.err(); err != nil {
		return "", err
	}
	if g.usesTime {
		g.use("time")
	}
	root := m.root
	var out strings.Builder
	out.WriteString("\nvar _ = fmt.Errorf\n")
	fmt.Fprintf(&out, "\n// serbenchFlatBuffersSchema is the digest of the schema this code and flatc's\n// were generated from.\nconst serbenchFlatBuffersSchema = %q\n", s.Digest())
	fmt.Fprintf(&out, `
// serbenchMarshalFlatBuffers resets b, builds v into it and returns the
// finished bytes, which b owns until its next Reset.
func serbenchMarshalFlatBuffers(b *flatbuffers.Builder, v *%[1]s) []byte {
	b.Reset()
	b.Finish(%[4]s(b, v))
	return b.FinishedBytes()
}

// serbenchUnmarshalFlatBuffers reads the FlatBuffer data into v, a zero value.
func serbenchUnmarshalFlatBuffers(data []byte, v *%[1]s) error {
	return %[5]s(%[3]s.GetRootAs%[2]s(data, 0), v)
}
`, g.goType(root.goT), root.name, g.fb, g.fn("serbenchFB", "Build", root), g.fn("serbenchFB", "Read", root))
	out.WriteString(g.body.String())
	if g.usesTime {
		fmt.Fprintf(&out, `
func serbenchFBTimeBuild(b *flatbuffers.Builder, t time.Time) flatbuffers.UOffsetT {
	%[1]s.%[2]sStart(b)
	%[1]s.%[2]sAddSeconds(b, t.Unix())
	%[1]s.%[2]sAddNanos(b, int32(t.Nanosecond()))
	return %[1]s.%[2]sEnd(b)
}

func serbenchFBTimeRead(r *%[1]s.%[2]s) time.Time {
	return time.Unix(r.Seconds(), int64(r.Nanos())).UTC()
}
`, g.fb, g.timeName)
	}
	return g.source(pkg, "FlatBuffers", out.String())
}

// Digest is "sha256:" and the first 16 bytes of the SHA-256 of the
// schema's text, in hex: FlatBuffersGo writes it into the generated code,
// and a change to the type that changes the schema changes it.
func (s *Schema) Digest() string {
	sum := sha256.Sum256([]byte(s.Text))
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// fbsTimeName is the name DeriveFlatBuffers gave the Timestamp table in
// schema text (Timestamp, or Timestamp2 when a Go type is named so).
func fbsTimeName(text string) string {
	i := strings.Index(text, " is a time.Time: Unix seconds")
	if i < 0 {
		return "Timestamp"
	}
	return text[strings.LastIndex(text[:i], "// ")+3 : i]
}

// fbsGo writes the build and read functions of each table.
type fbsGo struct {
	*goFile
	fb       string // the package name of flatc's code
	body     strings.Builder
	timeName string
	usesTime bool
}

// fbsGoScalar is the Go type flatc uses for a scalar of the schema.
func fbsGoScalar(t *typ) string {
	switch t.kind {
	case kBool:
		return "bool"
	case kInt:
		return fmt.Sprintf("int%d", t.bits)
	case kUint:
		return fmt.Sprintf("uint%d", t.bits)
	case kFloat:
		return fmt.Sprintf("float%d", t.bits)
	case kDuration:
		return "int64"
	}
	return ""
}

// slot is a field of a table: its accessor name (flatc's Go name of
// the field), its name in the schema in CamelCase (which names a map's
// entry table; "" when it is acc), index and type.
type slot struct {
	table, acc, name string
	index            int
	typ              *typ
	path             string
}

func (s slot) vt() string { return fmt.Sprintf("%d", 4+2*s.index) }

// message writes the build and read functions of table x.
func (g *fbsGo) message(x *msg) {
	if !g.named(x, "FlatBuffers") {
		return
	}
	gt := g.goType(x.goT)
	var prep, add, read strings.Builder
	for i, f := range x.fields {
		acc := flatcGoName(f.schemaName())
		if acc == "Init" || acc == "Table" {
			g.fail(f.path, f.typ, "its FlatBuffers accessor %s would clash with the generated type's own method", acc)
			continue
		}
		s := slot{table: x.name, acc: acc, name: camel(f.schemaName()), index: i, typ: f.typ, path: f.path}
		expr, guard, allocs := g.fieldPath(x, f)
		d, p, a := g.write(s, expr)
		prep.WriteString(d)
		if len(guard) > 0 {
			cond := strings.Join(guard, " && ")
			if p != "" {
				p = fmt.Sprintf("if %s {\n%s}\n", cond, p)
			}
			a = fmt.Sprintf("if %s {\n%s}\n", cond, a)
		}
		prep.WriteString(p)
		add.WriteString(a)
		fmt.Fprintf(&read, "if tab := r.Table(); tab.Offset(%s) != 0 {\n%s%s}\n", s.vt(), allocs, g.read(s, "r", expr))
	}
	fmt.Fprintf(&g.body, "\nfunc %[6]s(b *flatbuffers.Builder, v *%[2]s) flatbuffers.UOffsetT {\n%[3]s%[4]s.%[1]sStart(b)\n%[5]sreturn %[4]s.%[1]sEnd(b)\n}\n",
		x.name, gt, prep.String(), g.fb, add.String(), g.fn("serbenchFB", "Build", x))
	fmt.Fprintf(&g.body, "\nfunc %[5]s(r *%[3]s.%[1]s, v *%[2]s) error {\n%[4]sreturn nil\n}\n",
		x.name, gt, g.fb, read.String(), g.fn("serbenchFB", "Read", x))
}

// write returns the code that declares and prepares field s's value
// expr before the table starts (creating its offset) and the code that
// adds it.
func (g *fbsGo) write(s slot, expr string) (decl, prep, add string) {
	t := s.typ
	addFn := fmt.Sprintf("%s.%sAdd%s", g.fb, s.table, s.acc)
	if sc := fbsGoScalar(t); sc != "" {
		return "", "", fmt.Sprintf("%s(b, %s(%s))\n", addFn, sc, expr)
	}
	if t.kind == kPtr {
		if sc := fbsGoScalar(t.elem); sc != "" {
			return "", "", fmt.Sprintf("if %s != nil {\n%s(b, %s(*%s))\n}\n", expr, addFn, sc, expr)
		}
	}
	off := g.local("o")
	cond, code := g.offset(s, expr)
	decl = fmt.Sprintf("var %s flatbuffers.UOffsetT\n", off)
	if cond != "" {
		prep = fmt.Sprintf("if %s {\n%s%s = o\n}\n", cond, code, off)
	} else {
		prep = fmt.Sprintf("{\n%s%s = o\n}\n", code, off)
	}
	return decl, prep, fmt.Sprintf("if %s != 0 {\n%s(b, %s)\n}\n", off, addFn, off)
}

// offset returns the condition for field s's value expr to be written
// ("" for always) and the code that creates it and sets o to its offset.
func (g *fbsGo) offset(s slot, expr string) (cond, code string) {
	t := s.typ
	switch t.kind {
	case kPtr:
		e := s
		e.typ = t.elem
		_, c := g.offset(e, "(*"+expr+")")
		return expr + " != nil", c
	case kString:
		return expr + ` != ""`, fmt.Sprintf("o := b.CreateString(string(%s))\n", expr)
	case kBytes:
		if t.fix > 0 {
			return "", fmt.Sprintf("o := b.CreateByteVector(%s[:])\n", expr)
		}
		return expr + " != nil", fmt.Sprintf("o := b.CreateByteVector([]byte(%s))\n", expr)
	case kTime:
		g.usesTime = true
		return "", fmt.Sprintf("o := serbenchFBTimeBuild(b, %s)\n", g.timeOf(t, expr))
	case kStruct:
		return "", fmt.Sprintf("o := %s(b, &%s)\n", g.fn("serbenchFB", "Build", t.msg), expr)
	case kSlice, kArray:
		if t.kind == kSlice {
			cond = expr + " != nil"
		}
		return cond, g.vector(s, expr)
	case kMap:
		return expr + " != nil", g.mapVector(s, expr)
	}
	g.fail(s.path, t, "no FlatBuffers code is generated for this shape (a %s)", t.goT.Kind())
	return "", ""
}

// vector is the code that writes slice or array expr as field s's vector.
func (g *fbsGo) vector(s slot, expr string) string {
	e := s.typ.elem
	ptr := e.kind == kPtr
	if ptr {
		e = e.elem
	}
	start := fmt.Sprintf("%s.%sStart%sVector(b, len(%s))", g.fb, s.table, s.acc, expr)
	if sc := fbsGoScalar(e); sc != "" {
		val := fmt.Sprintf("%s(%s[i])", sc, expr)
		if ptr {
			val = fmt.Sprintf("%s(*%s[i])", sc, expr)
			val = fmt.Sprintf("func() %s { if %s[i] == nil { return 0 }; return %s }()", sc, expr, val)
		}
		return fmt.Sprintf("%s\nfor i := len(%s) - 1; i >= 0; i-- {\nb.Prepend%s(%s)\n}\no := b.EndVector(len(%s))\n",
			start, expr, strings.ToUpper(sc[:1])+sc[1:], val, expr)
	}
	offs := g.local("offs")
	es := slot{table: s.table, acc: s.acc, name: s.name, typ: e, path: s.path + "[]"}
	elem := expr + "[i]"
	var body string
	if ptr {
		ez := g.local("zero")
		_, c := g.offset(es, "(*x)")
		body = fmt.Sprintf("x := %s\nif x == nil {\nvar %s %s\nx = &%s\n}\n%s", elem, ez, g.goType(e.goT), ez, c)
	} else {
		_, c := g.offset(es, elem)
		body = c
	}
	return fmt.Sprintf("%[1]s := make([]flatbuffers.UOffsetT, len(%[2]s))\nfor i := range %[2]s {\n%[3]s%[1]s[i] = o\n}\n%[4]s\nfor i := len(%[1]s) - 1; i >= 0; i-- {\nb.PrependUOffsetT(%[1]s[i])\n}\no := b.EndVector(len(%[1]s))\n",
		offs, expr, body, start)
}

// entryName is the entry table of map field s, as DeriveFlatBuffers names it.
func entryName(s slot) string {
	name := s.name
	if name == "" {
		name = s.acc
	}
	if name == "Value" && strings.HasSuffix(s.table, "Entry") {
		return strings.TrimSuffix(s.table, "Entry") + "ValueEntry"
	}
	return s.table + "_" + name + "Entry"
}

// flatcGoName is the Go name flatc 2.0.8 gives the accessors of a field
// named s in the schema: it reads s as camelCase and splits it into
// snake_case words, a word starting at each letter or digit that is not
// lower case and follows a lower-case one (the rest of the name lower-cased),
// then writes the words in CamelCase ("hostPID" is HostPid, "podIPs"
// PodIps, "ipv6Addr" Ipv6addr, "created_at" CreatedAt); a leading '_'
// stays, as does the letter after it ("_links" is _links).
func flatcGoName(s string) string {
	var snake strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 0:
			snake.WriteByte(lowerASCII(c))
		case c == '_':
			snake.WriteByte('_')
		case !isLower(c):
			if isLower(s[i-1]) {
				snake.WriteByte('_')
			}
			snake.WriteByte(lowerASCII(c))
		default:
			snake.WriteByte(c)
		}
	}
	w := snake.String()
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		switch {
		case i == 0:
			b.WriteByte(upperASCII(w[i]))
		case w[i] == '_' && i+1 < len(w):
			i++
			b.WriteByte(upperASCII(w[i]))
		default:
			b.WriteByte(w[i])
		}
	}
	return b.String()
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if isLower(c) {
		return c - ('a' - 'A')
	}
	return c
}

// mapVector is the code that writes map expr as field s's vector of
// entry tables sorted by key.
func (g *fbsGo) mapVector(s slot, expr string) string {
	t := s.typ
	entry := entryName(s)
	keys, offs := g.local("keys"), g.local("offs")
	kt := g.goType(t.key.goT)
	sortFn := "slices.Sort(" + keys + ")"
	if t.key.kind == kBool {
		sortFn = fmt.Sprintf("slices.SortFunc(%s, func(a, b %s) int {\nif a == b {\nreturn 0\n}\nif !a {\nreturn -1\n}\nreturn 1\n})", keys, kt)
	}
	g.use("slices")
	ks := slot{table: entry, acc: "Key", index: 0, typ: t.key, path: s.path + "{key}"}
	vs := slot{table: entry, acc: "Value", index: 1, typ: t.elem, path: s.path + "{}"}
	kd, kp, ka := g.write(ks, "k")
	vd, vp, va := g.write(vs, "val")
	if t.key.kind == kString {
		// An empty key is still a key: write it.
		kd, kp = "", "ko := b.CreateString(string(k))\n"
		ka = fmt.Sprintf("%s.%sAddKey(b, ko)\n", g.fb, entry)
	}
	return fmt.Sprintf(`%[1]s := make([]%[2]s, 0, len(%[3]s))
for k := range %[3]s {
%[1]s = append(%[1]s, k)
}
%[4]s
%[5]s := make([]flatbuffers.UOffsetT, len(%[1]s))
for i, k := range %[1]s {
val := %[3]s[k]
_ = val
%[6]s%[7]s.%[8]sStart(b)
%[9]s%[10]s%[5]s[i] = %[7]s.%[8]sEnd(b)
}
%[7]s.%[11]sStart%[12]sVector(b, len(%[5]s))
for i := len(%[5]s) - 1; i >= 0; i-- {
b.PrependUOffsetT(%[5]s[i])
}
o := b.EndVector(len(%[5]s))
`, keys, kt, expr, sortFn, offs, kd+kp+vd+vp, g.fb, entry, ka, va, s.table, s.acc)
}

// read is the code that sets dst from field s of accessor r, which the
// buffer holds.
func (g *fbsGo) read(s slot, r, dst string) string {
	t := s.typ
	get := fmt.Sprintf("%s.%s", r, s.acc)
	if sc := fbsGoScalar(t); sc != "" {
		return fmt.Sprintf("%s = %s(%s())\n", dst, g.goType(t.goT), get)
	}
	switch t.kind {
	case kPtr:
		x := g.local("x")
		if fbsGoScalar(t.elem) != "" {
			return fmt.Sprintf("if p := %s(); p != nil {\n%s := %s(*p)\n%s = &%s\n}\n", get, x, g.goType(t.elem.goT), dst, x)
		}
		e := s
		e.typ = t.elem
		return fmt.Sprintf("var %s %s\n%s%s = &%s\n", x, g.goType(t.elem.goT), g.read(e, r, x), dst, x)
	case kString:
		return fmt.Sprintf("%s = %s(%s())\n", dst, g.goType(t.goT), get)
	case kBytes:
		if t.fix > 0 {
			return fmt.Sprintf("if bs := %s(); len(bs) > %d {\nreturn fmt.Errorf(\"%s: %%d bytes, more than the array's %d\", len(bs))\n} else {\ncopy(%s[:], bs)\n}\n",
				get+"Bytes", t.fix, s.path, t.fix, dst)
		}
		return fmt.Sprintf("%s = %s(append([]byte{}, %sBytes()...))\n", dst, g.goType(t.goT), get)
	case kTime:
		acc := g.local("acc")
		return fmt.Sprintf("var %s %s.%s\n%s = %s\n", acc, g.fb, g.timeName, dst, g.timeAs(t, "serbenchFBTimeRead("+get+"(&"+acc+"))"))
	case kStruct:
		acc := g.local("acc")
		return fmt.Sprintf("var %s %s.%s\nif err := %s(%s(&%s), &%s); err != nil {\nreturn err\n}\n", acc, g.fb, t.msg.name, g.fn("serbenchFB", "Read", t.msg), get, acc, dst)
	case kSlice, kArray:
		return g.readVector(s, r, dst)
	case kMap:
		return g.readMap(s, r, dst)
	}
	g.fail(s.path, t, "no FlatBuffers code is generated for this shape (a %s)", t.goT.Kind())
	return ""
}

// readVector is the code that sets slice or array dst from vector field s.
func (g *fbsGo) readVector(s slot, r, dst string) string {
	t := s.typ
	e := t.elem
	ptr := e.kind == kPtr
	if ptr {
		e = e.elem
	}
	n := g.local("n")
	var b strings.Builder
	fmt.Fprintf(&b, "%s := %s.%sLength()\n", n, r, s.acc)
	if t.kind == kArray {
		fmt.Fprintf(&b, "if %s > %d {\nreturn fmt.Errorf(\"%s: %%d elements, more than the array's %d\", %s)\n}\n", n, t.fix, s.path, t.fix, n)
	} else {
		fmt.Fprintf(&b, "%s = make(%s, %s)\n", dst, g.goType(t.goT), n)
	}
	elem := dst + "[j]"
	target := elem
	if ptr {
		target = "(*" + elem + ")"
	}
	fmt.Fprintf(&b, "for j := range %s {\n", n)
	if ptr {
		fmt.Fprintf(&b, "%s = new(%s)\n", elem, g.goType(e.goT))
	}
	switch {
	case fbsGoScalar(e) != "" || e.kind == kString:
		fmt.Fprintf(&b, "%s = %s(%s.%s(j))\n", target, g.goType(e.goT), r, s.acc)
	case e.kind == kTime:
		fmt.Fprintf(&b, "var ts %s.%s\n%s.%s(&ts, j)\n%s = %s\n", g.fb, g.timeName, r, s.acc, target, g.timeAs(e, "serbenchFBTimeRead(&ts)"))
	case e.kind == kStruct:
		fmt.Fprintf(&b, "var acc %s.%s\n%s.%s(&acc, j)\nif err := %s(&acc, &%s); err != nil {\nreturn err\n}\n", g.fb, e.msg.name, r, s.acc, g.fn("serbenchFB", "Read", e.msg), target)
	default:
		g.fail(s.path+"[]", e, "no FlatBuffers code is generated for this vector element (a %s)", e.goT.Kind())
	}
	b.WriteString("}\n")
	return b.String()
}

// readMap is the code that sets map dst from vector field s of entries.
func (g *fbsGo) readMap(s slot, r, dst string) string {
	t := s.typ
	entry := entryName(s)
	n, e, k, v := g.local("n"), g.local("e"), g.local("k"), g.local("v")
	ks := slot{table: entry, acc: "Key", index: 0, typ: t.key, path: s.path + "{key}"}
	vs := slot{table: entry, acc: "Value", index: 1, typ: t.elem, path: s.path + "{}"}
	return fmt.Sprintf(`%[1]s := %[2]s.%[3]sLength()
%[4]s = make(%[5]s, %[1]s)
for j := range %[1]s {
var %[6]s %[7]s.%[8]s
%[2]s.%[3]s(&%[6]s, j)
var %[9]s %[10]s
var %[11]s %[12]s
%[13]sif tab := %[6]s.Table(); tab.Offset(%[14]s) != 0 {
%[15]s}
%[4]s[%[9]s] = %[11]s
}
`, n, r, s.acc, dst, g.goType(t.goT), e, g.fb, entry, k, g.goType(t.key.goT), v, g.goType(t.elem.goT),
		g.read(ks, "(&"+e+")", k), vs.vt(), g.read(vs, "(&"+e+")", v))
}
