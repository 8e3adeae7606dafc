package archive

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"text/tabwriter"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// Gather reads the runs of paths, each an archive folder (Load) or one run
// file (ReadFile), sorted by key. Files of a folder that are not runs it
// can hold are returned in bad and left out. A path that cannot be read, a
// folder that holds no runs and two runs of the same key are errors.
func Gather(ctx context.Context, paths []string) (runs []*Run, bad []error, err error) {
	seen := map[string]string{}
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, nil, err
		}
		var got []*Run
		if fi.IsDir() {
			var skipped []error
			if got, skipped, err = Load(ctx, path); err != nil {
				return nil, nil, err
			}
			bad = append(bad, skipped...)
			if len(got) == 0 {
				return nil, nil, fmt.Errorf("archive: %s holds no runs", path)
			}
		} else {
			r, err := ReadFile(path)
			if err != nil {
				return nil, nil, err
			}
			got = []*Run{r}
		}
		for _, r := range got {
			if prev, ok := seen[r.Key]; ok {
				return nil, nil, fmt.Errorf("archive: %s and %s are the same run (key %s)", prev, r.Path, r.Key)
			}
			seen[r.Key] = r.Path
			runs = append(runs, r)
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].Key < runs[j].Key })
	return runs, bad, ctx.Err()
}

// WriteList writes one aligned line per run: its key (as terminal text),
// its cells, codecs and scenarios, and the noise spread of its env
// (percent, "-" when not measured), under a header line.
func WriteList(w io.Writer, runs []*Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "key\tcells\tcodecs\tscenarios\tnoise spread")
	for _, r := range runs {
		codecs, scenarios := map[string]bool{}, map[string]bool{}
		for _, x := range r.Doc.Results {
			codecs[x.Codec], scenarios[x.Scenario] = true, true
		}
		noise := "-"
		if n := r.Doc.Env.Noise; n != nil && n.Probes > 0 {
			noise = fmt.Sprintf("%.1f%%", 100*n.Spread)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", document.TerminalText(r.Key), len(r.Doc.Results), len(codecs), len(scenarios), noise)
	}
	return tw.Flush()
}

// AddDocument adds the run document doc to the archive in dir (Add), as
// the JSON results.WriteJSON writes, read back as Parse reads a file named name.
// It returns the path written.
func AddDocument(ctx context.Context, dir string, doc *results.Run, name string) ([]string, error) {
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, doc); err != nil {
		return nil, err
	}
	r, err := Parse(buf.Bytes(), name)
	if err != nil {
		return nil, err
	}
	return Add(ctx, dir, []*Run{r})
}
