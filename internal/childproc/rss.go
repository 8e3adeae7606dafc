package childproc

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// WatchRSS starts watching p: it kills p when its resident memory exceeds
// max bytes, checking /proc/PID/statm every 20 ms, and sets over when it
// did. Where /proc/PID/statm cannot be read (not Linux, or p is gone) it
// watches nothing. stop ends the watch and returns only once the watching
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
	path := "/proc/" + strconv.Itoa(p.Pid) + "/statm"
	page := int64(os.Getpagesize())
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return
		}
		pages, err := strconv.ParseInt(f[1], 10, 64)
		if err == nil && pages*page > max {
			over.Store(true)
			p.Kill()
			return
		}
	}
}
