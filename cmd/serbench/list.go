package main

import (
	"context"
	"fmt"
	"io"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/listing"
)

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("list", stderr)
	corpusFlag := fs.String("corpus", "", "a JSON file, a JSON Lines file (.ndjson, .jsonl) or a folder of them, to list as corpus/<name> scenarios too")
	format := formatFlag(fs, "table", []string{"table", "json", "markdown"}, "json: a serbench-list/v1 document; markdown: the codec table of docs/codecs.md, with library, version, kind, time, default set, round-trip check per seed scenario")
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *format == "markdown" {
		return listing.CodecsMarkdown(stdout, listing.SeedIDs(), listing.CodecRows(all.Registry().All()))
	}
	l, warnings, err := listing.New(ctx, listing.Options{Registry: all.Registry(), Corpus: *corpusFlag, Measure: *format == "json"})
	for _, w := range warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	if err != nil {
		return err
	}
	if *format == "json" {
		return listing.ListJSON(stdout, *l)
	}
	return listing.List(stdout, *l)
}
