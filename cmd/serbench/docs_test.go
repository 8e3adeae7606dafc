package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/doccheck"
)

// repoRoot is the repository's root, seen from this package's folder.
var repoRoot = filepath.Join("..", "..")

// TestDocLinks checks that every relative link of README.md and docs/**/*.md
// names a file that exists, and a heading of it when the link has a
// #fragment, and that links from README.md reach every one of those
// documents.
func TestDocLinks(t *testing.T) {
	files, err := doccheck.Files(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		errs, err := doccheck.CheckLinks(repoRoot, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Error(e)
		}
	}
	unreached, err := doccheck.Unreached(repoRoot, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range unreached {
		t.Errorf("%s: no chain of links from README.md reaches it", f)
	}
}

// errParsed stops a subcommand once its command line has parsed.
var errParsed = errors.New("parsed")

// parseOnly is a stderr that stops every subcommand once its command line
// has parsed (parseStopper), keeping its flag set in fs.
type parseOnly struct {
	io.Writer
	fs *flag.FlagSet
}

func (p *parseOnly) stopAfterParse(fs *flag.FlagSet) error {
	p.fs = fs
	return errParsed
}

// TestDocCommands parses, without running, every serbench command of the
// shell blocks of README.md and docs/**/*.md: the subcommand must exist and
// its flags and arguments must parse as written (a block preceded by
// doccheck.SkipMarker is left out).
func TestDocCommands(t *testing.T) {
	files, err := doccheck.Files(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	stderr := &parseOnly{Writer: io.Discard}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range doccheck.Commands(string(src)) {
			if c.Unresolved {
				t.Logf("%s:%d: not parsed (a shell expansion the block does not define): %s", f, c.Line, c.Text)
				continue
			}
			n++
			stderr.fs = nil
			err := run(context.Background(), io.Discard, stderr, c.Args)
			switch {
			case errors.Is(err, errParsed):
			case err == nil && stderr.fs == nil && len(c.Args) > 0 && c.Args[0] == "help":
			default:
				t.Errorf("%s:%d: %s: %v", f, c.Line, c.Text, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no serbench command found in the docs' shell blocks")
	}
}
