// Command musgen writes codec/mus/mus-format.gen.go: MUS serializers that
// github.com/mus-format/musgen-go generates for the seed scenario types of
// package scenario (a cross-package generation: the serializers live in
// package codec/mus, the types in package scenario). It is run by
// the go:generate line of codec/mus, from that folder, and by the package's
// TestGeneratedCodeIsCurrent with an output path of its own.
//
// Usage: musgen [OUTPUT]   (default mus-format.gen.go)
//
// Options: the generator's defaults (varint integers, varint lengths, raw
// floats), but for the two time.Time fields, which are written as Unix
// nanoseconds and decoded in UTC (typeops.NanoUTC): musgen-go's default,
// Unix seconds, would drop the seeds' nanoseconds.
package main

import (
	"fmt"
	"os"
	"reflect"

	musgen "github.com/mus-format/musgen-go/mus"
	genops "github.com/mus-format/musgen-go/options/generate"
	structops "github.com/mus-format/musgen-go/options/struct"
	typeops "github.com/mus-format/musgen-go/options/type"

	"github.com/serbench/serbench/scenario"
)

func main() {
	out := "mus-format.gen.go"
	if len(os.Args) > 2 {
		fmt.Fprintf(os.Stderr, "musgen: usage: musgen [OUTPUT] (got %d arguments)\n", len(os.Args)-1)
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		out = os.Args[1]
	}
	src, err := generate()
	if err == nil {
		err = os.WriteFile(out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "musgen:", err)
		os.Exit(1)
	}
}

// fields returns the struct options for n fields, with ops for the one at
// index at (0-based) and none for the others.
func fields(n, at int, ops ...typeops.SetOption) []structops.SetOption {
	out := make([]structops.SetOption, n)
	for i := range out {
		if i == at {
			out[i] = structops.WithField(ops...)
		} else {
			out[i] = structops.WithField()
		}
	}
	return out
}

func generate() ([]byte, error) {
	g, err := musgen.NewCodeGenerator(
		genops.WithPkgPath("github.com/serbench/serbench/codec/mus"),
		genops.WithPackage("mus"),
		genops.WithImport("github.com/serbench/serbench/scenario"),
	)
	if err != nil {
		return nil, fmt.Errorf("new generator: %w", err)
	}
	nanoUTC := typeops.WithTimeUnit(typeops.NanoUTC)
	structs := []struct {
		t   reflect.Type
		ops []structops.SetOption
	}{
		{reflect.TypeFor[scenario.SSEEvent](), nil},
		{reflect.TypeFor[scenario.EventSource](), nil},
		{reflect.TypeFor[scenario.EventItem](), nil},
		{reflect.TypeFor[scenario.UserEvent](), fields(11, 4, nanoUTC)}, // OccurredAt
		{reflect.TypeFor[scenario.WSMessage](), nil},
		{reflect.TypeFor[scenario.BBox](), nil},
		{reflect.TypeFor[scenario.Label](), nil},
		{reflect.TypeFor[scenario.Annotation](), nil},
		{reflect.TypeFor[scenario.Address](), nil},
		{reflect.TypeFor[scenario.UserProfile](), fields(7, 5, nanoUTC)}, // CreatedAt
	}
	for _, s := range structs {
		if err := g.AddStruct(s.t, s.ops...); err != nil {
			return nil, fmt.Errorf("add %s: %w", s.t, err)
		}
	}
	src, err := g.Generate()
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	return src, nil
}
