package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/evolve"
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

// codecsValue is the -codecs flag: a comma-separated list of names that
// check accepts.
type codecsValue struct {
	list  string
	check func(names []string) error
}

func (c *codecsValue) String() string { return c.list }

func (c *codecsValue) Set(s string) error {
	if names := splitList(s); len(names) > 0 && c.check != nil {
		if err := c.check(names); err != nil {
			return err
		}
	}
	c.list = s
	return nil
}

// codecsFlag defines -codecs on fs with default def: comma-separated names
// (empty items are ignored) that check accepts, or any names when check is
// nil. A name check rejects (an unknown codec or group) fails the parse
// with check's error.
func codecsFlag(fs *flag.FlagSet, def, usage string, check func(names []string) error) *string {
	c := &codecsValue{list: def, check: check}
	fs.Var(c, "codecs", usage)
	return &c.list
}

// resolveCodecs is the -codecs check of the subcommands that take codec IDs
// and groups: every name must be a codec or a group of codec/all.
func resolveCodecs(names []string) error {
	_, err := all.Registry().Resolve(names)
	return err
}

// resolveRunCodecs is run's -codecs check: as resolveCodecs, but a codec
// serbench has and this build lacks (codec.Registry.Absent) passes, since
// a build of run -go may have it; without -go, selecting the matrix then
// fails with the reason.
func resolveRunCodecs(names []string) error {
	reg := all.Registry()
	var present []string
	for _, n := range names {
		if _, absent := reg.Absent(n); !absent {
			present = append(present, n)
		}
	}
	if len(present) == 0 {
		return nil
	}
	_, err := reg.Resolve(present)
	return err
}

// selectCodecIDs is the -codecs check of load, which takes codec IDs only.
func selectCodecIDs(names []string) error {
	_, err := all.Registry().Select(names)
	return err
}

// evolveCodecs is evolve's -codecs check: every name must be a row of the
// evolution matrix.
func evolveCodecs(names []string) error {
	_, err := evolve.SelectCodecs(evolve.AllCodecs(all.Registry().All()), names)
	return err
}
