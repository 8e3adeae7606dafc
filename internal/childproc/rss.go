package childproc

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// WatchRSS kills p when its resident memory exceeds max bytes, checking
// /proc/PID/statm every 20 ms, until stop is closed; over is set when it
// killed p. Where /proc/PID/statm cannot be read (not Linux, or p is gone)
// it returns without doing anything. Run it in its own goroutine.
func WatchRSS(p *os.Process, max int64, over *atomic.Bool, stop <-chan struct{}) {
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
