package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/rundoc"
)

// The flags several subcommands share are checked where they are parsed, so
// that a bad value is a usage error (exit 2, see parseFlags) in every
// subcommand alike, before any work starts.

// choiceValue is a flag.Value that holds one of a fixed list of words.
type choiceValue struct {
	what  string // "format"
	value string
	valid []string
}

func (c *choiceValue) String() string { return c.value }

func (c *choiceValue) Set(s string) error {
	if !slices.Contains(c.valid, s) {
		return fmt.Errorf("unknown %s %q (valid: %s)", c.what, s, strings.Join(c.valid, ", "))
	}
	c.value = s
	return nil
}

// formatFlag defines -format on fs, default def, taking one of valid;
// usage follows "output format: " and the valid list in -h. Any other value
// fails the parse, naming the valid ones.
func formatFlag(fs *flag.FlagSet, def string, valid []string, usage string) *string {
	c := &choiceValue{what: "format", value: def, valid: valid}
	text := "output `format`: " + strings.Join(valid, ", ") // -h shows "-format format"
	if usage != "" {
		text += " (" + usage + ")"
	}
	fs.Var(c, "format", text)
	return &c.value
}

// outputValue is the -o flag: a file name, never an empty one or an
// existing directory.
type outputValue struct{ path string }

func (o *outputValue) String() string { return o.path }

func (o *outputValue) Set(s string) error {
	if s == "" {
		return errors.New("empty file name (leave -o out to write to standard output)")
	}
	if fi, err := os.Stat(s); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory, not a file", s)
	}
	o.path = s
	return nil
}

// outputFlag defines -o on fs: the file the output goes to instead of
// standard output (empty: standard output). An empty value or an existing
// directory fails the parse; a file that cannot be written fails later,
// when the subcommand opens it (openOutput), with status 1.
func outputFlag(fs *flag.FlagSet, usage string) *string {
	o := &outputValue{}
	fs.Var(o, "o", strings.Replace(usage, "file", "`file`", 1)) // -h shows "-o file"
	return &o.path
}

// codecsValue is the -codecs flag: a comma-separated list of names
// (empty items are ignored), resolved once, when the flag is parsed, into
// the codec IDs they name. ids is that selection, the one the subcommand
// passes on; nil when the flag is neither given nor has a default.
type codecsValue struct {
	list    string
	ids     []string
	resolve func(names []string) ([]string, error)
}

func (c *codecsValue) String() string {
	if c == nil {
		return ""
	}
	return c.list
}

func (c *codecsValue) Set(s string) error {
	names := splitList(s)
	ids := names
	if len(names) > 0 && c.resolve != nil {
		var err error
		if ids, err = c.resolve(names); err != nil {
			return err
		}
	}
	c.list, c.ids = s, ids
	return nil
}

// codecsFlag defines -codecs on fs with default def, a list of codec IDs
// taken as given: the names are resolved by resolve into the IDs of the
// selection (kept as given when resolve is nil), and a name resolve
// rejects (an unknown codec or group) fails the parse with its error.
func codecsFlag(fs *flag.FlagSet, def, usage string, resolve func(names []string) ([]string, error)) *codecsValue {
	c := &codecsValue{list: def, ids: splitList(def), resolve: resolve}
	fs.Var(c, "codecs", usage)
	return c
}

// codecIDs returns the IDs of cs, in order.
func codecIDs(cs []codec.Codec) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.Info().ID
	}
	return ids
}

// resolveCodecs is the -codecs resolution of the subcommands that take
// codec IDs and groups: every name must be a codec or a group of codec/all
// (codec.Registry.Resolve).
func resolveCodecs(names []string) ([]string, error) {
	cs, err := all.Registry().Resolve(names)
	return codecIDs(cs), err
}

// resolveRunCodecs is run's -codecs resolution (rundoc.ResolveCodecs).
func resolveRunCodecs(names []string) ([]string, error) {
	return rundoc.ResolveCodecs(all.Registry(), names)
}

// selectCodecIDs is the -codecs check of load, which takes codec IDs only.
func selectCodecIDs(names []string) ([]string, error) {
	_, err := all.Registry().Select(names)
	return names, err
}

// evolveCodecs is evolve's -codecs check: every name must be a row of the
// evolution matrix.
func evolveCodecs(names []string) ([]string, error) {
	_, err := evolve.SelectCodecs(evolve.AllCodecs(all.Registry().All()), names)
	return names, err
}
