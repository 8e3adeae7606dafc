package doccheck

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// FolderMapFile is the document whose first fenced block maps every folder
// of the repository to what it holds, one folder per line (its first word,
// ending in "/", or "." for the root).
const FolderMapFile = "docs/development.md"

// FolderMap returns the folders the first fenced block of FolderMapFile
// under root names, without their trailing "/". A pattern such as
// "codec/<library>/" stands for every folder at that level.
func FolderMap(root string) ([]string, error) {
	f, err := os.Open(filepath.Join(root, FolderMapFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if in {
				return out, nil
			}
			in = true
			continue
		}
		if !in || line == "" || line[0] == ' ' {
			continue
		}
		word, _, _ := strings.Cut(line, " ")
		out = append(out, strings.TrimSuffix(word, "/"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s: no fenced block", FolderMapFile)
}

// PackageDirs returns, relative to root and with "/" separators, every
// folder that holds a Go file, leaving out testdata and folders whose name
// starts with "." or "_".
func PackageDirs(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); !slices.Contains(out, rel) {
				out = append(out, rel)
			}
		}
		return nil
	})
	return out, err
}

// Unmapped returns the folders of dirs that no entry of folderMap covers:
// an entry covers its own folder and the folders below it ("." only
// itself), and "<...>" in an entry matches any one folder name.
func Unmapped(folderMap, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if !slices.ContainsFunc(folderMap, func(e string) bool { return covers(e, d) }) {
			out = append(out, d)
		}
	}
	return out
}

func covers(entry, dir string) bool {
	if entry == "." {
		return dir == "."
	}
	es, ds := strings.Split(entry, "/"), strings.Split(dir, "/")
	if len(ds) < len(es) {
		return false
	}
	for i, e := range es {
		if e != ds[i] && !(strings.HasPrefix(e, "<") && strings.HasSuffix(e, ">")) {
			return false
		}
	}
	return true
}

// Stale returns the entries of folderMap that name no folder under root
// (patterns with "<...>" are not checked).
func Stale(root string, folderMap []string) []string {
	var out []string
	for _, e := range folderMap {
		if strings.Contains(e, "<") {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(e))); err != nil || !fi.IsDir() {
			out = append(out, e)
		}
	}
	return out
}
