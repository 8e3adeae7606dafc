// Package doccheck reads the project's Markdown documents (README.md and
// docs/**/*.md) for the tests that keep them working: every relative link
// must name a file that exists and, with a #fragment, a heading of that file
// (GitHub's anchor rules), links from README.md must reach every document,
// and every serbench command in a shell block must parse. It never runs a command itself: Commands returns them and the
// caller (cmd/serbench's tests) parses their flags.
package doccheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Files returns README.md and every .md file under docs/ of the repository
// at root, as paths relative to root with forward slashes, sorted.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("doccheck: %w", err)
	}
	sort.Strings(files[1:])
	return files, nil
}

// A Link is one Markdown inline link [text](Target) found at Line of a file.
type Link struct {
	Line   int
	Target string
}

var (
	linkRE   = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	headRE   = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdLinkRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	htmlRE   = regexp.MustCompile(`<[^>]+>`)
)

// fence reports whether line opens or closes a fenced code block, and the
// block's info string (its language) when it opens one.
func fence(line string) (bool, string) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "```") {
		return true, strings.TrimSpace(strings.TrimPrefix(t, "```"))
	}
	return false, ""
}

// Links returns the inline links of a Markdown text, outside fenced code
// blocks and code spans.
func Links(md string) []Link {
	var links []Link
	in := false
	for i, line := range strings.Split(md, "\n") {
		if f, _ := fence(line); f {
			in = !in
			continue
		}
		if in {
			continue
		}
		line = codeRE.ReplaceAllString(line, "")
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			links = append(links, Link{Line: i + 1, Target: m[1]})
		}
	}
	return links
}

// Anchors returns the fragment IDs GitHub gives the headings of a Markdown
// text: the heading's text (links and code spans reduced to their text)
// lower-cased, every character but letters, digits, spaces, '-' and '_'
// dropped, spaces turned into '-'; a repeated ID gets "-1", "-2", ...
func Anchors(md string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	in := false
	for _, line := range strings.Split(md, "\n") {
		if f, _ := fence(line); f {
			in = !in
			continue
		}
		m := headRE.FindStringSubmatch(line)
		if in || m == nil {
			continue
		}
		id := Slug(m[2])
		if n := seen[id]; n > 0 {
			ids[fmt.Sprintf("%s-%d", id, n)] = true
		} else {
			ids[id] = true
		}
		seen[id]++
	}
	return ids
}

// Slug is GitHub's anchor for a heading's text (see Anchors).
func Slug(heading string) string {
	heading = mdLinkRE.ReplaceAllString(heading, "$1")
	heading = htmlRE.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CheckLinks returns one error per relative link of file (relative to root)
// whose target file does not exist or whose #fragment is no heading of the
// target (fragments are checked in Markdown targets only). Links with a
// scheme (https:, mailto:) are not followed.
func CheckLinks(root, file string) ([]error, error) {
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, fmt.Errorf("doccheck: %w", err)
	}
	var errs []error
	anchors := map[string]map[string]bool{}
	for _, l := range Links(string(src)) {
		if strings.Contains(l.Target, ":") && !strings.HasPrefix(l.Target, "#") {
			continue
		}
		path, frag, _ := strings.Cut(l.Target, "#")
		target := file
		if path != "" {
			target = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
		}
		if _, err := os.Stat(filepath.Join(root, target)); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: link %s: no file %s", file, l.Line, l.Target, target))
			continue
		}
		if frag == "" || !strings.HasSuffix(target, ".md") {
			continue
		}
		a, ok := anchors[target]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, target))
			if err != nil {
				return nil, fmt.Errorf("doccheck: %w", err)
			}
			a = Anchors(string(b))
			anchors[target] = a
		}
		if !a[frag] {
			errs = append(errs, fmt.Errorf("%s:%d: link %s: %s has no heading with anchor #%s", file, l.Line, l.Target, target, frag))
		}
	}
	return errs, nil
}

// A Command is one serbench command line of a shell block: Args are its
// words after the program (the subcommand first), with the block's
// variables (NAME=value lines before it) substituted. Inside a loop
// (for NAME in A B ...; do) a command is returned once per value of NAME,
// an empty value dropping the word $NAME as the shell does.
type Command struct {
	Line int
	Text string
	Args []string
	// Unresolved is set when a word still holds a shell expansion ($x,
	// $(...)) that the block does not define, such as a loop variable, or a
	// glob (*, ?) that the shell would expand:
	// such a command cannot be parsed as written.
	Unresolved bool
}

// SkipMarker, on the line before a fenced block, leaves the block's
// commands out of Commands: for commands shown because they fail.
const SkipMarker = "<!-- doccheck: skip -->"

// Commands returns the serbench commands of the fenced shell blocks (info
// string sh, bash, shell or console) of a Markdown text: every command of
// a line (split at ;, &&, || and |; a trailing & and comments removed,
// backslash continuations joined) whose program is serbench or
// `go run ./cmd/serbench`.
func Commands(md string) []Command {
	var cmds []Command
	lines := strings.Split(md, "\n")
	in, shell, skip := false, false, false
	vars := map[string][]string{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if f, info := fence(line); f {
			if !in {
				shell = info == "sh" || info == "bash" || info == "shell" || info == "console"
				skip = i > 0 && strings.TrimSpace(lines[i-1]) == SkipMarker
				vars = map[string][]string{}
			}
			in = !in
			continue
		}
		if !in || !shell || skip {
			continue
		}
		start := i
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(lines[i])
		}
		words := splitWords(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
		for _, seg := range segments(words) {
			if len(seg) > 0 && seg[0] == "do" {
				seg = seg[1:]
			}
			if len(seg) == 1 {
				if name, val, ok := strings.Cut(seg[0], "="); ok && isName(name) {
					vars[name] = []string{val}
					continue
				}
			}
			if len(seg) >= 3 && seg[0] == "for" && isName(seg[1]) && seg[2] == "in" {
				vars[seg[1]] = seg[3:]
				continue
			}
			args, ok := serbenchArgs(seg)
			if !ok {
				continue
			}
			for _, env := range bindings(args, vars) {
				c := Command{Line: start + 1, Text: strings.Join(seg, " ")}
				for _, a := range args {
					whole := varRE.FindStringSubmatch(a)
					e := expand(a, env)
					if e == "" && whole != nil && whole[0] == a {
						continue // an unquoted empty variable is no word
					}
					if strings.ContainsAny(e, "$*?") {
						c.Unresolved = true
					}
					c.Args = append(c.Args, e)
				}
				cmds = append(cmds, c)
			}
		}
	}
	return cmds
}

// serbenchArgs returns the words after the program when seg runs serbench.
func serbenchArgs(seg []string) ([]string, bool) {
	switch {
	case len(seg) >= 2 && seg[0] == "serbench":
		return seg[1:], true
	case len(seg) >= 4 && seg[0] == "go" && seg[1] == "run" && seg[2] == "./cmd/serbench":
		return seg[3:], true
	}
	return nil, false
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

var varRE = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)

// bindings returns one value per variable for every combination of the
// values of the block's variables that args use (one empty binding when
// they use none).
func bindings(args []string, vars map[string][]string) []map[string]string {
	out := []map[string]string{{}}
	seen := map[string]bool{}
	for _, a := range args {
		for _, m := range varRE.FindAllStringSubmatch(a, -1) {
			name := m[1]
			vals, ok := vars[name]
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			var next []map[string]string
			for _, b := range out {
				for _, v := range vals {
					nb := map[string]string{name: v}
					for k, x := range b {
						nb[k] = x
					}
					next = append(next, nb)
				}
			}
			out = next
		}
	}
	return out
}

// expand substitutes the variables ($NAME, ${NAME}) of vars in a word.
func expand(w string, vars map[string]string) string {
	return varRE.ReplaceAllStringFunc(w, func(m string) string {
		name := varRE.FindStringSubmatch(m)[1]
		if v, ok := vars[name]; ok {
			return v
		}
		return m
	})
}

// segments splits a line's words into commands at the shell's command
// separators and drops a trailing background &.
func segments(words []string) [][]string {
	var segs [][]string
	var cur []string
	for _, w := range words {
		switch w {
		case ";", "&&", "||", "|", "&":
			segs = append(segs, cur)
			cur = nil
		default:
			cur = append(cur, w)
		}
	}
	return append(segs, cur)
}

// splitWords splits a shell line into words: single and double quotes
// group (and are removed), a # outside quotes at a word's start begins a
// comment, and ;, &, | are words of their own.
func splitWords(line string) []string {
	var words []string
	var b strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, b.String())
			b.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				j = len(line) - i - 1
			}
			b.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return words
		case c == ';' || c == '&' || c == '|':
			flush()
			op := string(c)
			if i+1 < len(line) && line[i+1] == c && c != ';' {
				op += string(c)
				i++
			}
			words = append(words, op)
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words
}

// Unreached returns the files of files (paths relative to root, as Files
// gives them) that no chain of relative links from the first one reaches,
// sorted: a document a reader of the README cannot find.
func Unreached(root string, files []string) ([]string, error) {
	if len(files) == 0 {
		return nil, nil
	}
	seen := map[string]bool{files[0]: true}
	queue := []string{files[0]}
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return nil, fmt.Errorf("doccheck: %w", err)
		}
		for _, l := range Links(string(src)) {
			path, _, _ := strings.Cut(l.Target, "#")
			if path == "" || strings.Contains(path, ":") || !strings.HasSuffix(path, ".md") {
				continue
			}
			target := filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
			if !seen[target] {
				seen[target] = true
				queue = append(queue, target)
			}
		}
	}
	var out []string
	for _, f := range files {
		if !seen[f] {
			out = append(out, f)
		}
	}
	return out, nil
}
