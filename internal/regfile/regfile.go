// Package regfile opens files that must be regular files: the results,
// archive, corpus and sample files serbench reads. A named pipe (FIFO)
// would block a reader until some other process writes to it, a device
// such as /dev/zero never ends, and a symbolic link in a shared folder (a
// results archive) may point anywhere; Open refuses all of them with a
// *NotRegularError before reading a byte.
//
// On Unix the file is opened without blocking (O_NONBLOCK, so that opening
// a FIFO returns at once) and the check is made on the open file (fstat),
// so a file swapped between the check and the read cannot slip through;
// elsewhere the path is checked (Lstat or Stat) just before opening it.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is what every *NotRegularError matches with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is the error of opening a path that is not a regular
// file: Mode is its type (fs.ModeNamedPipe, fs.ModeDevice, fs.ModeSymlink,
// fs.ModeDir, ...).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, kind(e.Mode))
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// kind names a file type in words.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "of type " + m.Type().String()
}

// Open opens path for reading when it is a regular file; follow says
// whether a symbolic link as the last element of path is followed (false:
// a link is refused). Any other type of file is a *NotRegularError; other
// failures are os.Open's errors.
func Open(path string, follow bool) (*os.File, error) {
	f, err := open(path, follow)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, nil
}

// TooLargeError is the error of ReadFile for a file over its limit.
type TooLargeError struct {
	Path string
	// Size is the file's size in bytes (its size when opened: a file that
	// grew while read reports Limit+1 and AtLeast).
	Size    int64
	AtLeast bool
	// Limit is the most bytes the reader accepts.
	Limit int64
}

func (e *TooLargeError) Error() string {
	at := ""
	if e.AtLeast {
		at = "at least "
	}
	return fmt.Sprintf("%s is %s%d bytes, over the limit of %d", e.Path, at, e.Size, e.Limit)
}

// ReadFile reads the regular file at path (see Open) when it holds at most
// limit bytes; a larger one is a *TooLargeError, found from its size before
// reading and checked again while reading.
func ReadFile(path string, limit int64, follow bool) ([]byte, error) {
	f, err := Open(path, follow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), AtLeast: true, Limit: limit}
	}
	return data, nil
}
