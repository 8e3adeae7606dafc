package codec

import (
	"fmt"
	"sort"
	"strings"
)

// Group is a named set of codecs that a user can name wherever a codec ID
// is taken (`serbench run -codecs json,wire`). Membership is derived from
// each codec's Info, so a new codec falls into its groups by itself.
type Group struct {
	// Name is what the user writes: "json", "schema", ...
	Name string `json:"name"`
	// Doc says in words which codecs belong.
	Doc string `json:"doc"`
	// Has reports whether a codec belongs to the group.
	Has func(Info) bool `json:"-"`
}

// GroupPrefix names a group even when a codec has the same ID: "msgpack"
// is the vmihailenco codec, "group:msgpack" every MessagePack codec.
const GroupPrefix = "group:"

// Formats whose codegen codecs generate code from the Go types rather than
// from a schema in an interface definition language (easyjson, ffjson,
// msgp, msgpackgen, mus's musgen): they are not in the "schema" group.
var goTypeCodegenFormats = map[string]bool{"JSON": true, "MessagePack": true, "MUS": true}

// Formats whose codecs read a schema at run time instead of generating
// code from it (Avro's .avsc files): they are in the "schema" group too.
var runtimeSchemaFormats = map[string]bool{"Avro": true}

// Groups returns the named groups, in the order `serbench list` shows them.
// Reference rows (memmove) are in "default" and "all" only.
func Groups() []Group {
	codecRow := func(i Info) bool { return i.Kind != Reference }
	return []Group{
		{Name: "default", Doc: "the default set: the most used libraries plus wire and memmove (Info.Default)", Has: func(i Info) bool { return i.Default }},
		{Name: "all", Doc: "every codec", Has: func(Info) bool { return true }},
		{Name: "json", Doc: "format JSON", Has: func(i Info) bool { return i.Format == "JSON" && codecRow(i) }},
		{Name: "msgpack", Doc: "format MessagePack", Has: func(i Info) bool { return i.Format == "MessagePack" && codecRow(i) }},
		{Name: "cbor", Doc: "format CBOR", Has: func(i Info) bool { return i.Format == "CBOR" && codecRow(i) }},
		{Name: "schema", Doc: "a schema written apart from the Go types: code generated from it (every codegen format but JSON, MessagePack and MUS, whose generators read Go types) or read at run time (Avro)", Has: func(i Info) bool {
			return (i.Kind == Codegen && !goTypeCodegenFormats[i.Format]) || runtimeSchemaFormats[i.Format]
		}},
		{Name: "binary", Doc: "every binary format (Info.Binary), reference rows left out", Has: func(i Info) bool { return i.Binary && codecRow(i) }},
	}
}

// LookupGroup returns the group named name ("json" or "group:json").
func LookupGroup(name string) (Group, bool) {
	name = strings.TrimPrefix(name, GroupPrefix)
	for _, g := range Groups() {
		if g.Name == name {
			return g, true
		}
	}
	return Group{}, false
}

// GroupsOf returns the names of the groups info belongs to, "all" left out.
func GroupsOf(info Info) []string {
	var out []string
	for _, g := range Groups() {
		if g.Name != "all" && g.Has(info) {
			out = append(out, g.Name)
		}
	}
	return out
}

// Members returns the codecs of the registry in group g, in registration order.
func (r *Registry) Members(g Group) []Codec {
	var out []Codec
	for _, c := range r.order {
		if g.Has(c.Info()) {
			out = append(out, c)
		}
	}
	return out
}

// Default returns the codecs of the default set, in registration order.
func (r *Registry) Default() []Codec {
	g, _ := LookupGroup("default")
	return r.Members(g)
}

// Resolve returns the codecs that names name, in the order given: a name is
// a codec ID, or a group name (see Groups) that stands for its members in
// registration order. A codec ID wins over a group of the same name;
// "group:NAME" always means the group. A codec named twice appears once, at
// its first place. Groups stand for the registry's codecs only: over
// codec/defaults.Registry, "all" is the default set. A codec the registry
// lacks (see WithAbsent) is an error saying why; other unknown names are
// one error that names them all and lists the valid codec IDs and groups;
// an empty names is an error too.
func (r *Registry) Resolve(names []string) ([]Codec, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("codec: no codec or group named")
	}
	var out []Codec
	seen := map[string]bool{}
	add := func(c Codec) {
		if id := c.Info().ID; !seen[id] {
			seen[id] = true
			out = append(out, c)
		}
	}
	if err := r.absentError(names); err != nil {
		return nil, err
	}
	var unknown []string
	for _, n := range names {
		if c, ok := r.byID[n]; ok && !strings.HasPrefix(n, GroupPrefix) {
			add(c)
			continue
		}
		g, ok := LookupGroup(n)
		if !ok {
			unknown = append(unknown, fmt.Sprintf("%q", n))
			continue
		}
		for _, c := range r.Members(g) {
			add(c)
		}
	}
	if len(unknown) > 0 {
		valid := r.IDs()
		sort.Strings(valid)
		var groups []string
		for _, g := range Groups() {
			groups = append(groups, g.Name)
		}
		return nil, fmt.Errorf("unknown codec %s (valid: %s; groups: %s)", strings.Join(unknown, ", "), strings.Join(valid, ", "), strings.Join(groups, ", "))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("codec: no codec in %s", strings.Join(names, ","))
	}
	return out, nil
}
