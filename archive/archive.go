// Package archive stores serbench runs in a folder that keeps their
// history: one JSON file per run, named by a key built from the run's
// environment, so that a folder in git diffs well (a new run is a new file)
// and two machines can append to it without conflicting (their keys
// differ). There is no index to keep in step: readers list the folder.
//
// A file in the archive is the serbench/v1 JSON document of the run (as
// serbench run -format json writes it), byte for byte as it was added.
// Adding never replaces a file: a run whose key is taken is an error, and
// every file is written to a temporary name in the folder and linked to its
// final name only when complete. Adding several files adds all or none,
// also when several processes add to one folder at once (they take turns).
//
// Reading trusts nothing in the folder: only regular files (no symbolic
// links followed, no FIFOs or devices) of at most MaxFileBytes, holding a
// plausible run (results.Read's checks), are read; Load skips and names any
// other file.
package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/serbench/serbench/internal/regfile"
	"github.com/serbench/serbench/results"
)

// Ext is the extension of every run file in an archive.
const Ext = ".json"

// ErrDuplicate is the error of adding a run whose key the archive (or the
// same batch) already holds.
var ErrDuplicate = errors.New("archive: duplicate key")

// Run is one run of an archive, or one about to be added.
type Run struct {
	// Key names the run's file (Key + Ext); see KeyOf.
	Key string
	// Path is the file the run was read from.
	Path string
	// Doc is the run.
	Doc *results.Run
	// Engine is the encoding/json engine the env recorded (its
	// "json_engine" field: "v2" or "legacy"), "" where absent.
	Engine string
	data   []byte
}

// KeyOf returns a run's archive key, from its environment:
//
//	<started UTC, 2006-01-02T150405Z>_<go version>[-<json engine>]_<goos>-<goarch>_<cpu>_<serbench version>
//
// each part reduced to lower-case letters, digits, dots and '-' (other runs
// of characters become one '-'), the CPU model cut to 48 characters, and an
// empty part written "unknown". Keys sort by start time. engine is the
// env's json_engine field, "" where the run has none.
func KeyOf(doc *results.Run, engine string) string {
	e := doc.Env
	goPart := slug(e.Go, 32)
	if engine != "" {
		goPart += "-" + slug(engine, 16)
	}
	return strings.Join([]string{
		e.Started.UTC().Format("2006-01-02T150405Z"),
		goPart,
		slug(e.GOOS, 16) + "-" + slug(e.GOARCH, 16),
		slug(e.CPU, 48),
		slug(e.Serbench, 48),
	}, "_")
}

// slug reduces s to [a-z0-9.-], at most n bytes, "unknown" when empty.
func slug(s string, n int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			b.WriteRune(r)
			dash = false
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if len(out) > n {
		out = strings.TrimRight(out[:n], "-")
	}
	if out == "" {
		return "unknown"
	}
	return out
}

// Parse checks that data (read from name) is a run the archive can hold and
// returns it with its key. A run is serbench/v1 JSON with results, a
// toolchain (env.go) and a start time (env.started); anything else (the Go
// benchmark format, another schema, a serbench load report) is an error
// that names the file and the reason.
func Parse(data []byte, name string) (*Run, error) {
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("archive: %s: not a serbench run (want the JSON of serbench run -format json)", name)
	}
	doc, err := results.Read(bytes.NewReader(data), name)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	if doc.Env.Go == "" || doc.Env.Started.IsZero() {
		return nil, fmt.Errorf("archive: %s: env lacks the Go version or the start time, which the key is made of", name)
	}
	var raw struct {
		Env struct {
			JSONEngine string `json:"json_engine"`
		} `json:"env"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("archive: %s: %w", name, err)
	}
	r := &Run{Path: name, Doc: doc, Engine: raw.Env.JSONEngine, data: data}
	r.Key = KeyOf(doc, r.Engine)
	return r, nil
}

// MaxFileBytes caps one run file: results.MaxReadBytes (64 MiB), far above
// the 2 MB of a full default run. A larger file is an error wrapping a
// *regfile.TooLargeError that names the file, its size and the limit.
const MaxFileBytes = results.MaxReadBytes

// ReadFile reads and parses one run file (see Parse). It reads only a
// regular file of at most MaxFileBytes: a symbolic link (even to a run), a
// FIFO, a device or a folder is an error naming it (wrapping
// regfile.ErrNotRegular), returned before reading a byte.
func ReadFile(path string) (*Run, error) {
	data, err := regfile.ReadFile(path, MaxFileBytes, false)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	return Parse(data, path)
}

// CheckDir checks dir before runs are added to it (Add), so that a bad
// folder fails before the runs are made: a path that exists must be a
// folder (one that does not is created by Add).
func CheckDir(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("archive: %s: not a folder", dir)
	}
	return nil
}

// AddFiles reads the run files at paths (ReadFile) and adds them to dir
// (Add): all of them or, when a file cannot be read or added, none. ctx
// is checked before each file. It returns the paths written.
func AddFiles(ctx context.Context, dir string, paths []string) ([]string, error) {
	var runs []*Run
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return Add(ctx, dir, runs)
}

// Add stores runs in dir (created if missing): all of them or, on any
// error, none. A key held by dir already or twice among runs is an error
// wrapping ErrDuplicate that names both files. Adds to one folder take
// turns: each holds a lock on dir (flock on Unix; elsewhere a lock file,
// LockName) from its check of the keys to its last file, waiting for
// another add until ctx is done. Each file is written to a temporary file
// in dir and then linked to its final name, which fails rather than
// replace a file; when a later file fails, the files this call linked are
// removed again. It returns the paths written, in the order of runs (none
// on error).
func Add(ctx context.Context, dir string, runs []*Run) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	unlock, err := lock(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	seen := map[string]string{}
	for _, r := range runs {
		if prev, ok := seen[r.Key]; ok {
			return nil, fmt.Errorf("%w %s: %s and %s", ErrDuplicate, r.Key, prev, r.Path)
		}
		seen[r.Key] = r.Path
		if _, err := os.Lstat(filepath.Join(dir, r.Key+Ext)); err == nil {
			return nil, fmt.Errorf("%w %s: %s is already in %s", ErrDuplicate, r.Key, r.Path, dir)
		}
	}
	var written []string
	for _, r := range runs {
		path := filepath.Join(dir, r.Key+Ext)
		err := ctx.Err()
		if err == nil {
			err = writeNew(path, r.data)
		}
		if err != nil {
			for _, p := range written {
				os.Remove(p)
			}
			return nil, err
		}
		written = append(written, path)
	}
	return written, nil
}

// writeNew writes data to path through a temporary file, never replacing
// an existing path.
func writeNew(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("archive: %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("archive: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("archive: %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%w %s: %s was added meanwhile", ErrDuplicate, strings.TrimSuffix(filepath.Base(path), Ext), path)
		}
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// Load reads every run file (*.json) directly in dir, sorted by key (so by
// start time), checking ctx between files. A file that cannot be a run of
// the archive is skipped and its error, which names it, returned in bad:
// not a regular file (a symbolic link, a FIFO, a device), over
// MaxFileBytes, not a run, an implausible run (results.ErrImplausible), or
// a file whose name is not its key. err is a folder that cannot be listed,
// or ctx's error.
func Load(ctx context.Context, dir string) (runs []*Run, bad []error, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("archive: %w", err)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || filepath.Ext(name) != Ext {
			continue
		}
		r, err := ReadFile(filepath.Join(dir, name))
		if err != nil {
			bad = append(bad, err)
			continue
		}
		if r.Key+Ext != name {
			bad = append(bad, fmt.Errorf("archive: %s: file name is not the run's key %s%s", r.Path, r.Key, Ext))
			continue
		}
		runs = append(runs, r)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].Key < runs[j].Key })
	return runs, bad, nil
}

// Started is the run's start time (its env), for sorting and display.
func (r *Run) Started() time.Time { return r.Doc.Env.Started }
