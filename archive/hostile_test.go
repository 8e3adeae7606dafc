//go:build unix

package archive_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/internal/regfile"
	"github.com/serbench/serbench/results"
)

// TestLoadSkipsHostileFiles: an archive folder holding a symbolic link to
// /dev/zero, a FIFO, a truncated file, a run dated 9999 and a negative
// ns/op beside one good run loads the good run and names each of the
// others, without blocking or reading without end.
func TestLoadSkipsHostileFiles(t *testing.T) {
	dir := t.TempDir()
	good, err := archive.Parse(runJSON(t, t0, "cpu"), "good.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := archive.Add(context.Background(), dir, []*archive.Run{good}); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := string(runJSON(t, t0.Add(time.Hour), "cpu"))
	write("truncated.json", full[:len(full)/2])
	write("future.json", strings.Replace(full, "2026-11-24T09:30:05+01:00", "9999-12-31T00:00:00Z", 1))
	write("negative.json", strings.Replace(full, `"ns_per_op": 100,`, `"ns_per_op": -1e308,`, 1))
	runs, bad, err := archive.Load(context.Background(), dir)
	if err != nil || len(runs) != 1 || runs[0].Key != good.Key {
		t.Fatalf("load: %d runs, %v", len(runs), err)
	}
	want := map[string]func(error) bool{
		"zero.json":      func(err error) bool { return errors.Is(err, regfile.ErrNotRegular) },
		"fifo.json":      func(err error) bool { return errors.Is(err, regfile.ErrNotRegular) },
		"truncated.json": func(err error) bool { return strings.Contains(err.Error(), "not serbench JSON") },
		"future.json":    func(err error) bool { return errors.Is(err, results.ErrImplausible) },
		"negative.json":  func(err error) bool { return errors.Is(err, results.ErrImplausible) },
	}
	if len(bad) != len(want) {
		t.Errorf("skipped %d files, want %d: %v", len(bad), len(want), bad)
	}
	for _, e := range bad {
		name := ""
		for n := range want {
			if strings.Contains(e.Error(), n) {
				name = n
			}
		}
		if name == "" || !want[name](e) || strings.Contains(e.Error(), "\n") {
			t.Errorf("skipped with %v: not one line naming the file and its reason", e)
		}
	}
	// A cancelled context stops the load.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := archive.Load(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v", err)
	}
}

func TestReadFileLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(archive.MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = archive.ReadFile(path)
	var tl *regfile.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != archive.MaxFileBytes || !strings.Contains(err.Error(), "big.json") {
		t.Errorf("over MaxFileBytes: %v", err)
	}
}

// TestConcurrentAdds: 25 processes' worth of adds of two files each, where
// every pair shares its second file's key with the next pair: each add
// adds both files or neither (never one of its two), however they
// interleave.
func TestConcurrentAdds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	const n = 25
	parse := func(i int) *archive.Run {
		r, err := archive.Parse(runJSON(t, t0.Add(time.Duration(i)*time.Minute), "cpu"), fmt.Sprintf("run%d.json", i))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		batch := []*archive.Run{parse(2 * i), parse(2*i + 1), parse(2*i + 2)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = archive.Add(context.Background(), dir, batch)
		}()
	}
	wg.Wait()
	runs, bad, err := archive.Load(context.Background(), dir)
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	have := map[string]bool{}
	for _, r := range runs {
		have[r.Path] = true
	}
	added := 0
	for i := range n {
		k := func(j int) bool { return have[filepath.Join(dir, parse(j).Key+archive.Ext)] }
		switch {
		case errs[i] == nil:
			added++
			if !k(2*i) || !k(2*i+1) || !k(2*i+2) {
				t.Errorf("add %d succeeded but not all its files are there", i)
			}
		case !errors.Is(errs[i], archive.ErrDuplicate):
			t.Errorf("add %d: %v", i, errs[i])
		case k(2*i + 1):
			t.Errorf("add %d failed (%v) but its own file %d was kept", i, errs[i], 2*i+1)
		}
	}
	if added == 0 || len(runs) != 3*added {
		t.Errorf("%d adds succeeded, %d runs in the archive", added, len(runs))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
