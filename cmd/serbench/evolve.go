package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/evolve"
)

func init() {
	register("evolve", "schema evolution: old writer → new reader and back, per codec and change", cmdEvolve)
}

// evolveEnv reads the environment an evolve report records; tests replace
// it with a fixed one.
var evolveEnv = env.Collect

func cmdEvolve(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("evolve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		codecsFlag  = codecsFlag(fs, "", "comma-separated codec IDs (default: every row of the matrix)", evolveCodecs)
		changesFlag = fs.String("changes", "", "comma-separated change IDs (default: all): "+changeIDs())
		format      = formatFlag(fs, "table", evolve.Formats, "")
		out         = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the run succeeds)")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench evolve [flags]")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	reg := all.Registry()
	rows, err := evolve.SelectCodecs(evolve.AllCodecs(reg.All()), splitList(*codecsFlag))
	if err != nil {
		return err
	}
	changes, err := evolve.SelectChanges(splitList(*changesFlag))
	if err != nil {
		return err
	}
	started := time.Now()
	cells, err := evolve.Run(rows, changes)
	if err != nil {
		return err
	}
	var used []codec.Codec
	for _, r := range rows {
		if c, ok := reg.Lookup(strings.Split(r.ID, "/")[0]); ok {
			used = append(used, c)
		}
	}
	e := evolveEnv(started, moduleVersions(used))
	e.Settings = settings(fs)
	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)
	doc := evolve.Report{Schema: evolve.SchemaID, Env: e, Changes: changes, Codecs: rows, Cells: cells}
	if err := evolve.Write(w, *format, doc); err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	return commit(true)
}

func changeIDs() string {
	var ids []string
	for _, c := range evolve.Changes() {
		ids = append(ids, c.ID)
	}
	return strings.Join(ids, ", ")
}
