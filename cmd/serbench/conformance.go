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
	"github.com/serbench/serbench/conformance"
	"github.com/serbench/serbench/env"
)

func init() {
	register("conformance", "run JSONTestSuite, the CBOR WG vectors and msgpack-test-suite against the codecs", cmdConformance)
}

func cmdConformance(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		codecsFlag = codecsFlag(fs, "", "comma-separated codec IDs and groups (see serbench run -h; default: every codec a suite applies to)", resolveCodecs)
		suitesFlag = fs.String("suites", "", "comma-separated suites (default: all): "+strings.Join(conformance.Suites, ", "))
		format     = formatFlag(fs, "table", conformance.Formats, "")
		out        = outputFlag(fs, "write the output to this file instead of standard output")
		verbose    = fs.Bool("v", false, "list every miss and every reported outcome (json always has them)")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench conformance [flags]")
		fmt.Fprintln(stderr, "Runs the conformance suites built into serbench against the codecs they apply to.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	started := time.Now()
	codecs := all.Codecs()
	var ids []string
	if *codecsFlag != "" {
		named, err := all.Registry().Resolve(splitList(*codecsFlag))
		if err != nil {
			return err
		}
		for _, c := range named {
			ids = append(ids, c.Info().ID)
		}
	}
	rows, err := conformance.Run(ctx, codecs, conformance.Options{Suites: splitList(*suitesFlag), Codecs: ids})
	if err != nil {
		return err
	}
	e := env.Collect(started, moduleVersions(rowCodecs(codecs, rows)))
	e.Settings = settings(fs)
	rep := &conformance.Report{Schema: conformance.Schema, Env: e, Rows: rows}
	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)
	if err := conformance.Write(w, *format, rep, *verbose); err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	return commit(true)
}

// rowCodecs returns the codecs of cs that have a row in rows.
func rowCodecs(cs []codec.Codec, rows []conformance.Row) []codec.Codec {
	var out []codec.Codec
	for _, c := range cs {
		for _, r := range rows {
			if r.Codec == c.Info().ID {
				out = append(out, c)
				break
			}
		}
	}
	return out
}
