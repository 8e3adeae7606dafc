//go:build unix

package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/serbench/serbench/internal/regfile"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	toZero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", toZero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path   string
		follow bool
		want   string // "" for success
	}{
		{file, false, ""},
		{link, true, ""},
		{link, false, "symbolic link"},
		{toZero, false, "symbolic link"},
		{toZero, true, "character device"},
		{fifo, true, "named pipe"},
		{dir, true, "folder"},
	} {
		// A FIFO without a writer would block os.Open forever: Open must
		// return at once (the test would hang, not fail, if it did not).
		data, err := regfile.ReadFile(tc.path, 100, tc.follow)
		switch {
		case tc.want == "" && (err != nil || string(data) != "0123456789"):
			t.Errorf("%s (follow %v): %q, %v", tc.path, tc.follow, data, err)
		case tc.want != "" && (!errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path)):
			t.Errorf("%s (follow %v): %v, want a NotRegularError naming it and %q", tc.path, tc.follow, err, tc.want)
		}
	}
	_, err := regfile.ReadFile(file, 9, false)
	var tl *regfile.TooLargeError
	if !errors.As(err, &tl) || tl.Size != 10 || tl.Limit != 9 {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := regfile.ReadFile(filepath.Join(dir, "missing"), 9, false); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}
