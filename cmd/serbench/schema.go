package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	serbenchlib "github.com/serbench/serbench"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/scaffold"
)

func cmdSchema(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		typeName = fs.String("type", "", "the Go struct type (required): declared in the package PKG, pkg.Type for a package it imports, or importpath.Type")
		format   = fs.String("format", "proto", "the schema language: proto, avsc or fbs")
		hints    = fs.Bool("hints", false, "print the schema-tightening hints found in the -sample value instead of a schema")
		sample   = fs.String("sample", "", "with -hints: a JSON `file` holding one value of the type (read as serbench.FromJSON does)")
		ignore   = fs.Bool("ignore-unknown", false, "with -hints: drop the members of the -sample file that the type has no field for, as encoding/json does, instead of refusing the sample (serbench.FromJSONWith with SampleOptions{IgnoreUnknown: true})")
		hintTime = fs.Duration("hint-time", serbenchlib.HintBudget, "with -hints: how long to time proto.Marshal per hint for the ns/op columns; 0 for sizes only")
		skip     = fs.String("skip", "", "comma-separated field `paths` to leave out, as serbench.Options.Skip (Account.Extensions: Go or json names joined by dots)")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench schema -type NAME [-format proto|avsc|fbs] [-skip PATHS] [PKG]")
		fmt.Fprintln(stderr, "       serbench schema -type NAME -hints -sample FILE [-ignore-unknown] [-hint-time D] [-skip PATHS] [PKG]")
		fmt.Fprintln(stderr, "Writes to standard output the schema derived from the struct type NAME of the")
		fmt.Fprintln(stderr, "package in folder PKG (default .), the schema serbench.Benchmark's derived codecs")
		fmt.Fprintln(stderr, "use, with every lossy mapping as a comment. It runs go test in PKG with one test")
		fmt.Fprintln(stderr, "file added through -overlay (the working tree is not touched), so the module must")
		fmt.Fprintln(stderr, "require github.com/serbench/serbench. With -hints it prints instead the fields of")
		fmt.Fprintln(stderr, "the sample whose type could be tighter, with the protobuf and Avro bytes of the")
		fmt.Fprintln(stderr, "sample before and after each change (derive.FindHints).")
		fs.PrintDefaults()
	}
	help, err := parseFlagsArgs(fs, args, 0, 1, "at most one package folder")
	if help || err != nil {
		return err
	}
	if *typeName == "" {
		return usagef("schema: -type is required (the name of your Go struct type)")
	}
	f, err := derive.ParseFormat(*format)
	if err != nil {
		return usagef("schema: -format: %v", err)
	}
	if *hints != (*sample != "") {
		return usagef("schema: -hints and -sample go together: the hints are found in a sample value of the type")
	}
	if *hints {
		formatSet := false
		fs.Visit(func(fl *flag.Flag) { formatSet = formatSet || fl.Name == "format" })
		if formatSet {
			return usagef("schema: -format and -hints: -hints prints a table, not a schema")
		}
	}
	if *ignore && !*hints {
		return usagef("schema: -ignore-unknown goes with -hints -sample: it says how the sample is read")
	}
	if *hintTime < 0 {
		return usagef("schema: -hint-time %v: want 0 or more", *hintTime)
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	paths, err := scaffold.ParseSkip(*skip)
	if err != nil {
		return usagef("schema: -skip: %v", err)
	}
	var text string
	if *hints {
		text, err = scaffold.Hints(ctx, dir, *typeName, *sample, *ignore, paths, *hintTime)
	} else {
		text, err = scaffold.Schema(ctx, dir, *typeName, f, paths)
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, text)
	return err
}
