//go:build !unix

package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockPoll is how often a waiting add tries the lock again.
const lockPoll = 10 * time.Millisecond

// LockName is the lock file an add holds in the folder on platforms
// without flock(2): created exclusively, removed when the add ends. One
// left by a process that died must be removed by hand (the error names it).
const LockName = ".serbench-archive.lock"

// lock creates dir's lock file exclusively, waiting until ctx is done.
func lock(ctx context.Context, dir string) (unlock func(), err error) {
	path := filepath.Join(dir, LockName)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("archive: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("archive: waiting for %s (another add, or one that died: remove it): %w", path, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}
