package serbench_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/defaults"
)

func ids(cs []codec.Codec) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Info().ID)
	}
	return out
}

// Options.Codecs resolves exactly as `serbench run -codecs` does
// (codec.Registry.Resolve), and nil is the CLI's default set followed by
// the derived codecs, which otherwise run only when named.
func TestOptionsCodecs(t *testing.T) {
	reg := all.Registry()
	for _, tc := range []struct {
		name  string
		names []string
		want  []string
	}{
		{"nil is the default set and the derived codecs", nil, append(ids(reg.Default()), "protobuf/derived", "hyperpb/derived", "avro/derived")},
		{"empty is none", []string{}, nil},
		{"ids", []string{"gob", "encoding/json"}, []string{"gob", "encoding/json"}},
		{"group json", []string{"json"}, mustResolve(t, reg, "json")},
		{"ids and groups mixed", []string{"wire", "group:msgpack", "msgpack", "cbor"}, mustResolve(t, reg, "wire", "group:msgpack", "cbor")},
		{"default group", []string{"default"}, ids(reg.Default())},
		{"all", []string{"all"}, ids(reg.All())},
		{"derived by ID", []string{"avro/derived", "gob", "protobuf/derived"}, []string{"gob", "avro/derived", "protobuf/derived"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := serbench.Options{Registry: reg, Codecs: tc.names}.Fidelity(order)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range f {
				got = append(got, x.Codec)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Codecs %q ran %q, want %q", tc.names, got, tc.want)
			}
		})
	}
	if d, a := len(reg.Default()), len(reg.All()); d == 0 || d >= a {
		t.Errorf("default set %d codecs of %d: the nil case proves nothing", d, a)
	}
	json := mustResolve(t, reg, "json")
	if slices.Equal(json, ids(reg.Default())) || len(json) < 2 {
		t.Errorf("group json = %q: the group case proves nothing", json)
	}
	for _, bad := range [][]string{{"nope"}, {"group:nope"}, {"json", "nope"}} {
		_, err := serbench.Options{Registry: reg, Codecs: bad}.Fidelity(order)
		if err == nil || !strings.Contains(err.Error(), "Options.Codecs") || !strings.Contains(err.Error(), "groups: default, all") {
			t.Errorf("Codecs %q: %v, want an error listing the groups", bad, err)
		}
	}
}

func mustResolve(t *testing.T, reg *codec.Registry, names ...string) []string {
	t.Helper()
	cs, err := reg.Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	return ids(cs)
}

// A nil Options.Registry is the default set: "all" stands for it, and
// naming a codec outside it is an error that names codec/all.
func TestOptionsDefaultRegistry(t *testing.T) {
	f, err := serbench.Options{Codecs: []string{"all"}}.Fidelity(order)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range f {
		got = append(got, x.Codec)
	}
	if want := ids(defaults.Registry().All()); !slices.Equal(got, want) {
		t.Errorf(`Codecs "all" ran %q, want the default set %q`, got, want)
	}
	_, err = serbench.Options{Codecs: []string{"encoding/json", "sonic/fastest"}}.Fidelity(order)
	if err == nil || !strings.Contains(err.Error(), "sonic/fastest") || !strings.Contains(err.Error(), defaults.AllPackage) {
		t.Errorf(`Codecs "sonic/fastest": %v, want an error naming it and %s`, err, defaults.AllPackage)
	}
}
