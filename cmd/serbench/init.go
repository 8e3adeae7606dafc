package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/serbench/serbench/scaffold"
)

func cmdInit(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o scaffold.InitOptions
	fs.StringVar(&o.Type, "type", "", "the Go type to benchmark (required): declared in the package in -dir (an alias included), pkg.Type for a package it imports, or importpath.Type")
	codegen := fs.String("codegen", "", "comma-separated code generators to add for the type: "+scaffold.GeneratorNames()+
		" (protobuf, vtprotobuf: from the .proto serbench derives from the type, written under serbenchpb/; flatbuffers: from the derived .fbs under serbenchfb/, with generated conversion code)")
	fs.StringVar(&o.Dir, "dir", ".", "the package's folder")
	skip := fs.String("skip", "", "comma-separated field `paths` the derived schemas, the generated code and the comparison leave out, written into the test as serbench.Options.Skip (Account.Extensions,Meta.Labels: Go or json names joined by dots)")
	fs.BoolVar(&o.Get, "get", false, "run the go get -tool commands that pin the generators in go.mod, instead of printing them")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench init -type [IMPORTPATH.]NAME [-codegen msgp,easyjson,protobuf,vtprotobuf,flatbuffers] [-skip PATHS] [-dir DIR] [-get]")
		fmt.Fprintf(stderr, "Writes %s into the package in DIR: a benchmark and a fidelity check of\n", scaffold.InitFile)
		fmt.Fprintln(stderr, "NAME across serbench's default set of codecs, using package github.com/serbench/serbench.")
		fmt.Fprintln(stderr, "An existing file is never overwritten.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if o.Type == "" {
		return usagef("init: -type is required (the name of your Go type)")
	}
	var err error
	if o.Codegen, err = scaffold.ParseCodegen(*codegen); err != nil {
		return usageError{err}
	}
	if o.Skip, err = scaffold.ParseSkip(*skip); err != nil {
		return usagef("init: -skip: %v", err)
	}
	res, err := scaffold.Init(ctx, o)
	if res != nil {
		for _, w := range res.Written {
			fmt.Fprintf(stdout, "wrote %s (%s)\n", w.Path, w.What)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "next, in", o.Dir+":")
	n := 0
	for _, s := range res.Next {
		switch {
		case s.Ran:
			fmt.Fprintf(stdout, "  (ran %s: %s)\n", s.Command, s.Why)
		case s.Why != "":
			n++
			fmt.Fprintf(stdout, "  %d. %s   (%s)\n", n, s.Command, s.Why)
		default:
			n++
			fmt.Fprintf(stdout, "  %d. %s\n", n, s.Command)
		}
	}
	return nil
}
