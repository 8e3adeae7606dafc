package load

import (
	"fmt"
	"io"
)

// Processes is the process split of a push load (Split) and the memory of
// its processes, resident set sizes in bytes summed over the server
// processes and over the client processes. A figure that could not be
// read (the /proc files are Linux's) is 0, and so are the figures
// derived from it.
type Processes struct {
	Servers int `json:"servers"`
	Clients int `json:"clients"`
	// Conns is the connections of every client process together, each
	// one subscription of a server process.
	Conns int `json:"conns"`
	// ServerBaseRSSBytes is the server processes' resident set once they
	// were ready, before any connection (/proc/PID/statm).
	ServerBaseRSSBytes int64 `json:"server_base_rss_bytes"`
	// ServerIdleRSSBytes and ClientIdleRSSBytes are the resident sets at
	// 90% of the warm-up, when the connections were open and subscribed
	// and no message had been sent yet (/proc/PID/statm).
	ServerIdleRSSBytes int64 `json:"server_idle_rss_bytes"`
	ClientIdleRSSBytes int64 `json:"client_idle_rss_bytes"`
	// IdleSubscribers is the subscriptions the server processes held
	// then (GET /stats, subscribers): Conns when every connection was
	// open in time; 0 when a server did not answer.
	IdleSubscribers int `json:"idle_subscribers"`
	// ServerPeakRSSBytes and ClientPeakRSSBytes sum each process's peak
	// resident set over its life (getrusage ru_maxrss once it exited).
	// The peaks need not coincide, so each sum bounds the processes'
	// simultaneous peak from above.
	ServerPeakRSSBytes int64 `json:"server_peak_rss_bytes"`
	ClientPeakRSSBytes int64 `json:"client_peak_rss_bytes"`
	// IdleBytesPerSubscriber is what an idle subscription costs the
	// servers: (ServerIdleRSSBytes - ServerBaseRSSBytes) / IdleSubscribers
	// (/ Conns when IdleSubscribers is 0).
	IdleBytesPerSubscriber float64 `json:"idle_bytes_per_subscriber"`
	// PeakBytesPerSubscriber is ServerPeakRSSBytes / Conns, and
	// PeakBytesPerConn every process's peak together per connection:
	// (ServerPeakRSSBytes + ClientPeakRSSBytes) / Conns.
	PeakBytesPerSubscriber float64 `json:"peak_bytes_per_subscriber"`
	PeakBytesPerConn       float64 `json:"peak_bytes_per_conn"`
	// ServerCPUSeconds and ClientCPUSeconds are the CPU time, user and
	// system, the server and the client processes used from the idle
	// sample to their exit (getrusage once exited less /proc/PID/stat's
	// utime and stime at the sample): the messages and the grace, without
	// the connections' setup. 0 when the sample could not be read.
	ServerCPUSeconds float64 `json:"server_cpu_s,omitempty"`
	ClientCPUSeconds float64 `json:"client_cpu_s,omitempty"`
	// ServerCPUUsPerMsg and ClientCPUUsPerMsg are those divided by the
	// messages the clients received (every connection's copy counted):
	// the CPU cost of one delivered message at each end, in µs.
	ServerCPUUsPerMsg float64 `json:"server_cpu_us_per_msg,omitempty"`
	ClientCPUUsPerMsg float64 `json:"client_cpu_us_per_msg,omitempty"`
}

// perConn fills the per-connection figures of p from its sums.
func (p *Processes) perConn() {
	if p.Conns <= 0 {
		return
	}
	n := float64(p.Conns)
	if p.ServerIdleRSSBytes > 0 && p.ServerBaseRSSBytes > 0 {
		subs := n
		if p.IdleSubscribers > 0 {
			subs = float64(p.IdleSubscribers)
		}
		p.IdleBytesPerSubscriber = float64(p.ServerIdleRSSBytes-p.ServerBaseRSSBytes) / subs
	}
	p.PeakBytesPerSubscriber = float64(p.ServerPeakRSSBytes) / n
	if p.ServerPeakRSSBytes > 0 && p.ClientPeakRSSBytes > 0 {
		p.PeakBytesPerConn = float64(p.ServerPeakRSSBytes+p.ClientPeakRSSBytes) / n
	}
}

// MergeSplit merges the reports of a split push load's client processes,
// reps[j] from sp.Shares[j], into one report (Merge's rules, from one
// report up) with mem as its Processes. Unlike Merge, whose runs load one
// server, each server process's figures are its own: a result's server
// CPU seconds and peak RSS are summed over the server processes (each
// taken as the largest its client processes saw). It fails when reps and
// sp.Shares differ in length, and as Merge does.
func MergeSplit(reps []Report, sp Split, mem Processes, o MergeOptions) (MergeReport, error) {
	if len(reps) != len(sp.Shares) {
		return MergeReport{Schema: MergeSchema, Transport: []Result{}}, fmt.Errorf("load: merge split: %d reports for %d client processes", len(reps), len(sp.Shares))
	}
	names := make([]string, len(reps))
	for j, sh := range sp.Shares {
		names[j] = fmt.Sprintf("client %d (server %d)", sh.Client+1, sh.Server+1)
	}
	m, err := merge(reps, names, o, 1)
	if err != nil {
		return m, err
	}
	type key struct {
		result string
		server int
	}
	cpu, rss := map[key]float64{}, map[key]int64{}
	for j, rep := range reps {
		for _, r := range rep.Transport {
			k := key{r.Transport + "|" + r.Codec + "|" + r.Scenario, sp.Shares[j].Server}
			cpu[k] = max(cpu[k], r.ServerCPUSeconds)
			rss[k] = max(rss[k], r.PeakRSSBytes)
		}
	}
	for i := range m.Transport {
		r := &m.Transport[i]
		r.ServerCPUSeconds, r.PeakRSSBytes = 0, 0
		for k := range cpu {
			if k.result == r.Transport+"|"+r.Codec+"|"+r.Scenario {
				r.ServerCPUSeconds += cpu[k]
				r.PeakRSSBytes += rss[k]
			}
		}
	}
	mem.perConn()
	var received uint64
	for _, r := range m.Transport {
		received += r.Received
	}
	if received > 0 {
		mem.ServerCPUUsPerMsg = mem.ServerCPUSeconds * 1e6 / float64(received)
		mem.ClientCPUUsPerMsg = mem.ClientCPUSeconds * 1e6 / float64(received)
	}
	m.Processes = &mem
	return m, nil
}

// writeProcesses writes p as the lines of a merge table.
func writeProcesses(w io.Writer, p *Processes) error {
	mb := func(b int64) float64 { return float64(b) / 1e6 }
	_, err := fmt.Fprintf(w, "processes: %d server, %d client, %d connections (%d subscribed at the idle sample)\n"+
		"  servers RSS MB: %.0f ready, %.0f idle, %.0f peak; clients RSS MB: %.0f idle, %.0f peak\n"+
		"  bytes per subscriber: %.0f idle, %.0f peak (servers); bytes per connection, every process: %.0f peak\n",
		p.Servers, p.Clients, p.Conns, p.IdleSubscribers,
		mb(p.ServerBaseRSSBytes), mb(p.ServerIdleRSSBytes), mb(p.ServerPeakRSSBytes), mb(p.ClientIdleRSSBytes), mb(p.ClientPeakRSSBytes),
		p.IdleBytesPerSubscriber, p.PeakBytesPerSubscriber, p.PeakBytesPerConn)
	if err == nil && (p.ServerCPUSeconds > 0 || p.ClientCPUSeconds > 0) {
		_, err = fmt.Fprintf(w, "  CPU s after the idle sample: %.2f servers, %.2f clients; µs per message received: %.2f servers, %.2f clients\n",
			p.ServerCPUSeconds, p.ClientCPUSeconds, p.ServerCPUUsPerMsg, p.ClientCPUUsPerMsg)
	}
	if err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	return nil
}
