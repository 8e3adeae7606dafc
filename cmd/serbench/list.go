package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/report"
)

func init() {
	register("list", "list the codecs and scenarios with their IDs", cmdList)
}

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpusFlag := fs.String("corpus", "", "a JSON file, or a folder of .json files, to list as corpus/<name> scenarios too")
	format := fs.String("format", "table", "output format: table or json (a serbench-list/v1 document)")
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *format != "table" && *format != "json" {
		return fmt.Errorf("unknown format %q (valid: table, json)", *format)
	}
	scenarios, warnings, err := loadScenarios(*corpusFlag)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	var infos []codec.Info
	for _, c := range all.Codecs() {
		infos = append(infos, c.Info())
	}
	l := report.Listing{}
	l.Codecs, l.Groups = report.ListCodecs(infos)
	var ss []report.ListedScenario
	for _, s := range scenarios {
		ls := report.ListedScenario{ID: s.ID, Type: s.Type}
		ls.JSONBytes, ls.JSONErr = report.JSONSize(s.Value())
		ss = append(ss, ls)
	}
	l.Scenarios = ss
	if *format == "json" {
		return report.ListJSON(stdout, l)
	}
	return report.List(stdout, l)
}
