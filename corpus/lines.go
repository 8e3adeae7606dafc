package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/scenario"
)

// Limits of a JSON Lines file (Options.MaxLines, Options.MaxLineBytes).
const (
	// DefaultMaxLines is the default of Options.MaxLines: 1,000,000
	// messages, so that a 64 MiB file of 64-byte lines still loads.
	DefaultMaxLines = 1_000_000
	// DefaultMaxLineBytes is the default of Options.MaxLineBytes: 1 MiB,
	// the largest message a WebSocket or SSE server usually accepts.
	DefaultMaxLineBytes = 1 << 20
)

// LineExts are the file name endings Files reads as JSON Lines
// (https://jsonlines.org, also called NDJSON): one JSON value per line.
var LineExts = []string{".ndjson", ".jsonl"}

// LineLimitError reports a JSON Lines file over Options.MaxLines or a line
// over Options.MaxLineBytes.
type LineLimitError struct {
	// File is the path of the file.
	File string
	// Limit names the option: "MaxLines" or "MaxLineBytes".
	Limit string
	// Line is the 1-based line number where the limit was crossed.
	Line int
	// Size is the line's length in bytes (MaxLineBytes) or the number of
	// messages read so far, this one included (MaxLines).
	Size int
	// Max is the limit in effect.
	Max int
}

func (e *LineLimitError) Error() string {
	if e.Limit == "MaxLines" {
		return fmt.Sprintf("corpus: %s: line %d: more than %s %d messages", e.File, e.Line, e.Limit, e.Max)
	}
	return fmt.Sprintf("corpus: %s: line %d: %d bytes exceeds %s %d", e.File, e.Line, e.Size, e.Limit, e.Max)
}

// isLinesName reports whether path ends in one of LineExts.
func isLinesName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range LineExts {
		if ext == e {
			return true
		}
	}
	return false
}

// scenarioName is the file name without its .json, .ndjson or .jsonl.
func scenarioName(path string) string {
	base := filepath.Base(path)
	for _, e := range append([]string{".json"}, LineExts...) {
		if strings.HasSuffix(strings.ToLower(base), e) {
			return base[:len(base)-len(e)]
		}
	}
	return base
}

// decodeLines reads data as JSON Lines: every line that holds more than
// white space is one JSON value, decoded as decodeExact decodes a file. A
// "\r" before the "\n" is ignored. It returns the messages in file order,
// the losses of all lines merged (counts summed; the first example is the
// first line's that has one, its Path prefixed with "line N "), or an
// error naming the line.
func decodeLines(path string, data []byte, opts Options) ([]scenario.Message, []scenario.SourceLoss, error) {
	var (
		msgs   []scenario.Message
		losses []scenario.SourceLoss
		at     = map[string]int{}
	)
	for n, rest := 1, data; len(rest) > 0; n++ {
		line, tail, _ := bytes.Cut(rest, []byte("\n"))
		rest = tail
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > opts.MaxLineBytes {
			return nil, nil, &LineLimitError{File: path, Limit: "MaxLineBytes", Line: n, Size: len(line), Max: opts.MaxLineBytes}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(msgs) == opts.MaxLines {
			return nil, nil, &LineLimitError{File: path, Limit: "MaxLines", Line: n, Size: len(msgs) + 1, Max: opts.MaxLines}
		}
		v, ls, err := decodeExact(line)
		if err != nil {
			return nil, nil, fmt.Errorf("corpus: %s: line %d: %w", path, n, err)
		}
		for _, l := range ls {
			if i, ok := at[l.Kind]; ok {
				losses[i].Count += l.Count
				continue
			}
			at[l.Kind] = len(losses)
			l.Path = fmt.Sprintf("line %d %s", n, l.Path)
			losses = append(losses, l)
		}
		p := &v
		msgs = append(msgs, scenario.Message{Line: n, Value: p, Compare: func(got any) error { return diffExact(p, got) }})
	}
	if len(msgs) == 0 {
		return nil, nil, fmt.Errorf("corpus: %s: no JSON value on any line", path)
	}
	return msgs, sortLosses(losses), nil
}

// sortLosses puts losses in the order of lossOrder, as decodeExact does.
func sortLosses(ls []scenario.SourceLoss) []scenario.SourceLoss {
	var out []scenario.SourceLoss
	for _, k := range lossOrder {
		for _, l := range ls {
			if l.Kind == k {
				out = append(out, l)
			}
		}
	}
	return out
}

// linesScenario returns the message corpus corpus/<name> of msgs.
func linesScenario(path string, size int, msgs []scenario.Message, losses []scenario.SourceLoss) scenario.Scenario {
	doc := fmt.Sprintf("the user's JSON Lines file %s (%d bytes): %d messages, each decoded into any with numbers kept exact and measured one by one", path, size, len(msgs))
	first := msgs[0]
	s := newScenario(scenarioName(path), doc, first.Value)
	s.Compare = first.Compare
	s.Source = losses
	s.Messages = msgs
	return s
}

// tryLines reads data as JSON Lines after decodeExact found more than one
// value (err): a message corpus when every line holds one value and there
// are at least two, else the original error.
func tryLines(path string, data []byte, opts Options, err error) (scenario.Scenario, error) {
	if !errors.Is(err, errDataAfterValue) {
		return scenario.Scenario{}, err
	}
	msgs, losses, lerr := decodeLines(path, data, opts)
	var limit *LineLimitError
	if errors.As(lerr, &limit) {
		return scenario.Scenario{}, lerr
	}
	if lerr != nil || len(msgs) < 2 {
		return scenario.Scenario{}, err
	}
	return linesScenario(path, len(data), msgs, losses), nil
}
