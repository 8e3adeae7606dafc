package transport

import (
	"runtime"
	"sort"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/serbench/serbench/env"
)

// CodecStats counts what a Hub did for the streams of one (run, codec).
type CodecStats struct {
	Run   string `json:"run"`
	Codec string `json:"codec"`
	// Streams is how many streams were created.
	Streams uint64 `json:"streams"`
	// Published is how many messages the streams encoded and offered.
	Published uint64 `json:"published"`
	// Delivered is how many (message, subscriber) pairs were queued.
	Delivered uint64 `json:"delivered"`
	// Replayed is how many messages were replayed to resuming subscribers.
	Replayed uint64 `json:"replayed"`
	// ReplayMisses is how many messages a resuming subscriber asked for
	// that the replay buffer no longer held.
	ReplayMisses uint64 `json:"replay_misses"`
	// Dropped is how many (message, subscriber) pairs the Drop policy discarded.
	Dropped uint64 `json:"dropped"`
	// Overflows is how many subscribers the Disconnect policy dropped.
	Overflows uint64 `json:"overflows"`
	// EncodeErrors is how many messages the codec failed to encode.
	EncodeErrors uint64 `json:"encode_errors"`
	// Skipped is how many messages were never encoded because their
	// stream had no subscriber when they were due (see Hub).
	Skipped uint64 `json:"skipped"`
	// LagP50Us, LagP99Us and LagMaxUs describe how late the scheduler
	// published messages behind their intended times, in microseconds.
	LagP50Us int64 `json:"lag_p50_us"`
	LagP99Us int64 `json:"lag_p99_us"`
	LagMaxUs int64 `json:"lag_max_us"`
}

// ServerStats is a snapshot of a Hub and of the process it runs in.
type ServerStats struct {
	// CPUUserSeconds and CPUSystemSeconds are the process's CPU time so far
	// (env.ProcessUsage: getrusage RUSAGE_SELF): the whole process, which
	// includes an in-process load client.
	CPUUserSeconds   float64 `json:"cpu_user_s"`
	CPUSystemSeconds float64 `json:"cpu_sys_s"`
	// MaxRSSBytes is the process's peak resident set size (env.PeakRSS):
	// since the last env.ResetPeakRSS on Linux (VmHWM), the peak so far
	// elsewhere (getrusage).
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	// PeakReset is true when the request reset the peak (POST with reset_peak=1)
	// and the platform supports it: the next snapshot's MaxRSSBytes is
	// then the peak since this one.
	PeakReset  bool `json:"peak_reset,omitempty"`
	Goroutines int  `json:"goroutines"`
	Streams    int  `json:"streams"`
	// Subscribers is the SSE and WebSocket subscriptions open (Hub.Subscribers).
	Subscribers int          `json:"subscribers"`
	Codecs      []CodecStats `json:"codecs"`
}

// Stats returns the process counters and the CodecStats of run ("" for
// requests without run=), sorted by codec.
func (h *Hub) Stats(run string) ServerStats {
	st := ServerStats{Goroutines: runtime.NumGoroutine(), Streams: h.Streams()}
	st.Subscribers, _ = h.Subscribers()
	if u, err := env.ProcessUsage(); err == nil { // zeros where unreadable
		st.CPUUserSeconds, st.CPUSystemSeconds = u.User.Seconds(), u.System.Seconds()
	}
	st.MaxRSSBytes = env.PeakRSS()
	st.Codecs = h.stats.snapshot(run)
	return st
}

// maxRuns bounds how many (run, codec) entries a hub remembers, and
// maxClientRuns how many of them one client's streams (Request.Client)
// may have made: past its share a client's new entry replaces its own
// oldest, and past maxRuns the oldest entry of the client with the most
// goes, so that one client naming many run= cannot evict another's.
const (
	maxRuns       = 1024
	maxClientRuns = 256
)

type statsTable struct {
	mu      sync.Mutex
	m       map[[2]string]*codecStats
	order   []statsKey // oldest first
	clients map[string]int
}

type statsKey struct {
	k      [2]string
	client string
}

type codecStats struct {
	mu  sync.Mutex
	c   CodecStats
	lag *hdrhistogram.Histogram // microseconds
}

func (t *statsTable) get(run, codecID, client string) *codecStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[[2]string]*codecStats)
		t.clients = make(map[string]int)
	}
	k := [2]string{run, codecID}
	if cs := t.m[k]; cs != nil {
		return cs
	}
	switch {
	case t.clients[client] >= maxClientRuns:
		t.evict(client)
	case len(t.order) >= maxRuns:
		heaviest := ""
		for c, n := range t.clients {
			if n > t.clients[heaviest] || n == t.clients[heaviest] && c < heaviest {
				heaviest = c
			}
		}
		t.evict(heaviest)
	}
	cs := &codecStats{c: CodecStats{Run: run, Codec: codecID}, lag: hdrhistogram.New(1, int64(time.Hour/time.Microsecond), 3)}
	t.m[k] = cs
	t.order = append(t.order, statsKey{k, client})
	t.clients[client]++
	return cs
}

// evict forgets the oldest entry client made. The caller holds t.mu.
func (t *statsTable) evict(client string) {
	for i, e := range t.order {
		if e.client == client {
			delete(t.m, e.k)
			t.order = append(t.order[:i], t.order[i+1:]...)
			if t.clients[client]--; t.clients[client] == 0 {
				delete(t.clients, client)
			}
			return
		}
	}
}

func (t *statsTable) snapshot(run string) []CodecStats {
	t.mu.Lock()
	var list []*codecStats
	for k, cs := range t.m {
		if k[0] == run {
			list = append(list, cs)
		}
	}
	t.mu.Unlock()
	out := make([]CodecStats, 0, len(list))
	for _, cs := range list {
		cs.mu.Lock()
		c := cs.c
		c.LagP50Us = cs.lag.ValueAtQuantile(50)
		c.LagP99Us = cs.lag.ValueAtQuantile(99)
		c.LagMaxUs = cs.lag.Max()
		cs.mu.Unlock()
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Codec < out[j].Codec })
	return out
}

func (cs *codecStats) add(f func(*CodecStats)) {
	cs.mu.Lock()
	f(&cs.c)
	cs.mu.Unlock()
}

func (cs *codecStats) publish(lag time.Duration, delivered, dropped, overflows uint64) {
	us := max(int64(lag/time.Microsecond), 1)
	cs.mu.Lock()
	cs.c.Published++
	cs.c.Delivered += delivered
	cs.c.Dropped += dropped
	cs.c.Overflows += overflows
	_ = cs.lag.RecordValue(min(us, cs.lag.HighestTrackableValue())) // in range by construction
	cs.mu.Unlock()
}
