//go:build !unix

package regfile

import "os"

// open checks path's type by name (Lstat without follow, Stat with it) and
// then opens it: without O_NONBLOCK there is no way to open a FIFO and
// check it afterwards without blocking.
func open(path string, follow bool) (*os.File, error) {
	stat := os.Stat
	if !follow {
		stat = os.Lstat
	}
	fi, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return os.Open(path)
}
