package main

import (
	"flag"
	"io"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
)

// envFunc returns the environment a subcommand's document records: this
// machine and process (env.Collect) with the modules of the codecs
// used and every flag of fs in effect. The libraries take it as their
// options' Env.
func envFunc(fs *flag.FlagSet) func(started time.Time, used []codec.Codec) env.Env {
	return func(started time.Time, used []codec.Codec) env.Env {
		env := codec.Env(started, used)
		env.Settings = settings(fs)
		return env
	}
}

// writeOutput writes a document with write to the file path (-o), or to
// stdout when path is "". An existing file is replaced only when write
// succeeds (openOutput).
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	dst, err := openOutput(stdout, path)
	if err != nil {
		return err
	}
	defer dst.discard()
	return dst.write(write)
}
