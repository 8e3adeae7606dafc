package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/scenario"
)

func init() {
	register("list", "list the codecs and scenarios with their IDs", cmdList)
}

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpusFlag := fs.String("corpus", "", "a JSON file, or a folder of .json files, to list as corpus/<name> scenarios too")
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	scenarios, warnings, err := loadScenarios(*corpusFlag)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	var infos []report.ListedCodec
	for _, c := range all.Codecs() {
		infos = append(infos, report.ListedCodec{Info: c.Info()})
	}
	var ss []report.ListedScenario
	for _, s := range append(scenarios, scenario.Annot()...) {
		ls := report.ListedScenario{ID: s.ID, Type: s.Type}
		ls.JSONBytes, ls.JSONErr = report.JSONSize(s.Value())
		ss = append(ss, ls)
	}
	return report.List(stdout, infos, ss)
}
