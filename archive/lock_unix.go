//go:build unix

package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockPoll is how often a waiting add tries the lock again.
const lockPoll = 10 * time.Millisecond

// lock takes an exclusive flock(2) on the folder dir itself (no file is
// left behind), waiting until ctx is done; the lock goes with the process.
func lock(ctx context.Context, dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	fd := int(f.Fd())
	for {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { unix.Flock(fd, unix.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("archive: lock %s: %w", dir, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("archive: waiting for another add to %s: %w", dir, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}
