package httpapi

import (
	"encoding/json"
	"net/http"
	"runtime/metrics"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/serbench/serbench/env"
)

// Stats is a snapshot of the process serving the API, for clients that
// take one before and one after a load and divide the differences by the
// requests served in between.
type Stats struct {
	// CPUUserSeconds and CPUSystemSeconds are the process's CPU time so far
	// (env.ProcessUsage: getrusage RUSAGE_SELF).
	CPUUserSeconds   float64 `json:"cpu_user_s"`
	CPUSystemSeconds float64 `json:"cpu_sys_s"`
	// HeapAllocBytes and HeapAllocObjects are the bytes and objects
	// allocated on the heap so far, from runtime/metrics
	// /gc/heap/allocs:bytes and /gc/heap/allocs:objects (cumulative).
	HeapAllocBytes   uint64 `json:"heap_alloc_bytes"`
	HeapAllocObjects uint64 `json:"heap_alloc_objects"`
	// GCCycles is runtime/metrics /gc/cycles/total:gc-cycles.
	GCCycles uint64 `json:"gc_cycles"`
	// Requests counts the API requests answered so far, per framework and
	// codec, sorted by both.
	Requests []RequestCount `json:"requests"`
}

// RequestCount is how many requests one (framework, codec) answered, with a
// 2xx status (OK) or another (Errors). A request whose codec could not be
// resolved is counted under codec "".
type RequestCount struct {
	Framework string `json:"framework"`
	Codec     string `json:"codec"`
	OK        uint64 `json:"ok"`
	Errors    uint64 `json:"errors"`
}

type counter struct{ ok, errs atomic.Uint64 }

type stats struct{ m sync.Map } // [2]string{framework, codec} -> *counter

func (s *stats) count(framework, codecID string, code int) {
	k := [2]string{framework, codecID}
	v, ok := s.m.Load(k)
	if !ok {
		v, _ = s.m.LoadOrStore(k, new(counter))
	}
	c := v.(*counter)
	if code >= 200 && code < 300 {
		c.ok.Add(1)
	} else {
		c.errs.Add(1)
	}
}

var metricNames = []string{"/gc/heap/allocs:bytes", "/gc/heap/allocs:objects", "/gc/cycles/total:gc-cycles"}

// Stats returns a snapshot of the process and of the request counters.
func (a *API) Stats() Stats {
	var st Stats
	if u, err := env.ProcessUsage(); err == nil { // zeros where unreadable
		st.CPUUserSeconds, st.CPUSystemSeconds = u.User.Seconds(), u.System.Seconds()
	}
	samples := make([]metrics.Sample, len(metricNames))
	for i, n := range metricNames {
		samples[i].Name = n
	}
	metrics.Read(samples)
	u := func(s metrics.Sample) uint64 {
		if s.Value.Kind() == metrics.KindUint64 {
			return s.Value.Uint64()
		}
		return 0
	}
	st.HeapAllocBytes, st.HeapAllocObjects, st.GCCycles = u(samples[0]), u(samples[1]), u(samples[2])
	a.stats.m.Range(func(k, v any) bool {
		key, c := k.([2]string), v.(*counter)
		st.Requests = append(st.Requests, RequestCount{Framework: key[0], Codec: key[1], OK: c.ok.Load(), Errors: c.errs.Load()})
		return true
	})
	sort.Slice(st.Requests, func(i, j int) bool {
		if st.Requests[i].Framework != st.Requests[j].Framework {
			return st.Requests[i].Framework < st.Requests[j].Framework
		}
		return st.Requests[i].Codec < st.Requests[j].Codec
	})
	return st
}

func (a *API) serveStats(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_ = json.NewEncoder(w).Encode(a.Stats()) // a failed write is the client's loss
}
