//go:build unix

package regfile

import (
	"errors"
	"os"
	"syscall"
)

// open opens path without blocking on a FIFO, and without following a
// final symbolic link unless follow.
func open(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		// O_NOFOLLOW on a link fails with ELOOP (EMLINK on FreeBSD).
		if !follow && (errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)) {
			if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
				return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
			}
		}
		return nil, err
	}
	// O_NONBLOCK stays set: it changes nothing for a regular file (reads
	// of one never block), and Open closes anything else.
	return f, nil
}
