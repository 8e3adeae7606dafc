package site

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b atomically (renameat2
// RENAME_EXCHANGE, Linux 3.15). It reports false, with no error, when the
// kernel or the file system does not offer the exchange.
func exchange(a, b string) (bool, error) {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOTSUP):
		return false, nil
	}
	return false, err
}
