package childproc

import (
	"os"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/env"
)

// WatchRSS starts watching p: it kills p when its resident memory exceeds
// max bytes, checking env.ResidentBytes (/proc/PID/statm) every 20 ms, and
// sets over when it did. Where that cannot be read (not Linux, or p is
// gone) it watches nothing. stop ends the watch and returns only once the watching
// goroutine has: call it when p has exited, before reading over.
func WatchRSS(p *os.Process, max int64, over *atomic.Bool) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		watchRSS(p, max, over, quit)
	}()
	return func() {
		close(quit)
		<-done
	}
}

func watchRSS(p *os.Process, max int64, over *atomic.Bool, stop <-chan struct{}) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		rss, err := env.ResidentBytes(p.Pid)
		if err != nil {
			return
		}
		if rss > max {
			over.Store(true)
			p.Kill()
			return
		}
	}
}
