package main

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/probe"
)

// fidelityChild serves probe.ChildRole: a probe that may make a library
// recurse without end runs in a child process of this executable
// (probe.Isolator), which writes its cell on standard output.
func fidelityChild(spec string) error {
	return probe.Child(os.Stdout, spec, all.Registry().Lookup)
}

func cmdFidelity(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("fidelity", stderr, "usage: serbench fidelity [flags]")
	var (
		codecsFlag = codecsFlag(fs, "", codecsUsage, resolveCodecs)
		probesFlag = fs.String("probes", "", "comma-separated probe IDs (default: all; -probes list prints them)")
		format     = formatFlag(fs, "table", probe.Formats, "")
		out        = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the run succeeds)")
		timeout    = fs.Duration("timeout", probe.DefaultTimeout, "time limit of one cell (a child process gets three times as long)")
	)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *timeout <= 0 {
		return usagef("invalid -timeout %v (must be positive)", *timeout)
	}
	probes := probe.Catalog()
	if *probesFlag == "list" {
		return probe.WriteCatalog(stdout, probes)
	}
	var err error
	if *probesFlag != "" {
		if probes, err = probe.Select(probes, splitList(*probesFlag)); err != nil {
			return usageError{err}
		}
	}
	codecs, err := selectCodecs(codecsFlag.ids)
	if err != nil {
		return err
	}
	dst, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer dst.discard()

	progress := newProgress(stderr, time.Now(), "cells")
	doc, err := probe.NewDocument(ctx, codecs, probes, probe.Options{Timeout: *timeout, Progress: progress.update}, envFunc(fs))
	progress.finish()
	if err != nil {
		return err
	}
	return dst.write(func(w io.Writer) error { return probe.Write(w, *format, doc) })
}
