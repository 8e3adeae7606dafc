package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/serbench/serbench/internal/regfile"
	"github.com/serbench/serbench/scenario"
)

// Files loads a user's JSON documents: the file at path, or, when path is a
// folder, each file of that folder whose name ends in ".json" (not
// recursive; sub-folders and other files are ignored), sorted by name. Each
// becomes the scenario "corpus/" + file name without ".json", whose Value is
// a *any holding the document's exact value, whose Compare compares a
// codec's result with what the file holds, and whose Source lists what
// encoding/json into any would lose; the package doc gives the rules.
//
// Errors, each naming the file and wrapping the underlying error: a path
// that cannot be read, a folder without .json files, an empty file, invalid
// JSON (with the byte offset, line and column; it wraps a
// *jsontext.SyntacticError), data after the document, or a file larger than
// opts.MaxFileBytes (a *LimitError).
//
// A file whose name ends in ".ndjson" or ".jsonl" (LineExts), or any
// other file that holds one JSON value per line, two or more of them, is
// JSON Lines: a message corpus whose Scenario.Messages holds one message
// per non-blank line (each decoded, compared and listed in Source as a
// document is), and whose Value is the first message. A folder includes
// those files too; the ID drops the extension. Limits: opts.MaxLines
// messages and opts.MaxLineBytes per line (a *LineLimitError); a line
// that is not one JSON value is an error naming the line.
//
// IDs are unique within one call. A caller combining several calls, or
// Files with Toolchain, should use Join, which refuses a duplicate ID: a
// user's twitter_status.json would otherwise shadow the toolchain's
// corpus/twitter_status.
func Files(path string, opts Options) ([]scenario.Scenario, error) {
	opts, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if !fi.IsDir() {
		s, err := loadFile(path, opts)
		if err != nil {
			return nil, err
		}
		return []scenario.Scenario{s}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var names []string
	for _, e := range entries {
		if (strings.HasSuffix(e.Name(), ".json") || isLinesName(e.Name())) && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("corpus: %s: no .json files (nor .ndjson or .jsonl) in folder", path)
	}
	sort.Strings(names)
	out := make([]scenario.Scenario, 0, len(names))
	for _, n := range names {
		s, err := loadFile(filepath.Join(path, n), opts)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// loadFile reads and decodes one user document, or JSON Lines file.
func loadFile(path string, opts Options) (scenario.Scenario, error) {
	data, err := regfile.ReadFile(path, opts.MaxFileBytes, true)
	var tl *regfile.TooLargeError
	if errors.As(err, &tl) {
		return scenario.Scenario{}, &LimitError{File: path, Size: tl.Size, AtLeast: tl.AtLeast, Limit: tl.Limit}
	}
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("corpus: %w", err)
	}
	if isLinesName(path) {
		msgs, losses, err := decodeLines(path, data, opts)
		if err != nil {
			return scenario.Scenario{}, err
		}
		return linesScenario(path, len(data), msgs, losses), nil
	}
	exact, losses, err := decodeExact(data)
	if err != nil {
		return tryLines(path, data, opts, fmt.Errorf("corpus: %s: %w", path, err))
	}
	v := &exact
	name := scenarioName(path)
	doc := fmt.Sprintf("the user's JSON document %s (%d bytes), decoded into any with numbers kept exact", path, len(data))
	s := newScenario(name, doc, v)
	s.Compare = func(got any) error { return diffExact(v, got) }
	s.Source = losses
	return s, nil
}

// Join concatenates lists of scenarios (for example Toolchain's and Files')
// in order. It returns an error naming the first ID that appears twice.
func Join(lists ...[]scenario.Scenario) ([]scenario.Scenario, error) {
	seen := map[string]bool{}
	var out []scenario.Scenario
	for _, l := range lists {
		for _, s := range l {
			if seen[s.ID] {
				return nil, fmt.Errorf("corpus: duplicate scenario ID %q", s.ID)
			}
			seen[s.ID] = true
			out = append(out, s)
		}
	}
	return out, nil
}
