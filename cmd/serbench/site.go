package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/site"
)

func init() {
	register("site", "write a static results explorer (opens from file://) from archived runs", cmdSite)
}

// cmdSite reads every ARCHIVE (a folder of archive add, or one run file)
// and writes the explorer to -o.
func cmdSite(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("site", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the folder to write the site to (required; replaced whole, only when it is a previous site or empty)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench site -o DIR ARCHIVE...")
		fmt.Fprintln(stderr, "Each ARCHIVE is a results archive folder (serbench archive add) or one run file (run -format json).")
		fmt.Fprintln(stderr, "DIR gets index.html, site.js and data.js: open index.html from disk or serve the folder as it is.")
		fmt.Fprintln(stderr, "A file of an archive folder that is not a plausible run is skipped and named; the site is built from the rest.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, -1, "at least one ARCHIVE"); help || err != nil {
		return err
	}
	if *out == "" {
		return usagef("site: -o DIR is required")
	}
	var runs []*archive.Run
	seen := map[string]string{}
	skipped := 0
	for _, path := range fs.Args() {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		var got []*archive.Run
		if fi.IsDir() {
			var bad []error
			if got, bad, err = archive.Load(ctx, path); err != nil {
				return err
			}
			for _, e := range bad {
				fmt.Fprintf(stderr, "serbench: site: skipped %s\n", document.TerminalText(e.Error()))
			}
			skipped += len(bad)
			if len(got) == 0 {
				return fmt.Errorf("site: %s holds no runs", path)
			}
		} else {
			r, err := archive.ReadFile(path)
			if err != nil {
				return err
			}
			got = []*archive.Run{r}
		}
		for _, r := range got {
			if prev, ok := seen[r.Key]; ok {
				return fmt.Errorf("site: %s and %s are the same run (key %s)", prev, r.Path, r.Key)
			}
			seen[r.Key] = r.Path
			runs = append(runs, r)
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].Key < runs[j].Key })
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := site.Build(ctx, runs)
	if err != nil {
		return err
	}
	if err := site.Write(*out, data); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "serbench: wrote %s/index.html (%d runs, %d codecs, %d scenarios)\n", *out, len(data.Runs), len(data.Codecs), len(data.Scenarios))
	if skipped > 0 {
		fmt.Fprintf(stderr, "serbench: site: %d files skipped (named above)\n", skipped)
	}
	return nil
}
