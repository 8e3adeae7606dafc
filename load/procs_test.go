package load_test

import (
	"math"
	"strings"
	"testing"

	"github.com/serbench/serbench/load"
)

// This machine's limits (2026): 20,000 descriptors per process, the
// default Linux port range.
var vmLimits = load.ProcessLimits{OpenFiles: 20000, Ports: 28232, SystemFiles: 2466174}

func TestPlanSplit(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		conns, fanout, servers, clients int
		url                             bool
		lim                             load.ProcessLimits
		inProcess                       bool
		wantServers, wantClients        int
	}{
		// 2*9000+64 descriptors fit one process: no split.
		{"fits one process", 9000, 1, 0, 0, false, vmLimits, true, 1, 1},
		{"fits with a url", 19000, 1, 0, 0, true, vmLimits, true, 0, 1},
		// 1,000 streams of 100: ceil(1000/N)*100 + 256 <= 20000 from N = 6.
		{"the target run", 100000, 100, 0, 0, false, vmLimits, false, 6, 6},
		{"idle, fan-out 1", 100000, 1, 0, 0, false, vmLimits, false, 6, 6},
		{"both processes asked", 40, 10, 2, 4, false, vmLimits, false, 2, 4},
		{"one of each asked", 40, 10, 1, 0, false, vmLimits, false, 1, 1},
		{"url, too many for one client", 30000, 1, 0, 0, true, vmLimits, false, 0, 2},
		// Descriptors aplenty, ports few: 1,000 connections per client.
		{"ports", 5000, 1, 1, 0, false, load.ProcessLimits{OpenFiles: 1 << 20, Ports: 1000}, false, 1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := load.PlanSplit(tc.conns, tc.fanout, tc.servers, tc.clients, tc.url, tc.lim)
			if err != nil {
				t.Fatal(err)
			}
			if sp.InProcess != tc.inProcess || sp.Servers != tc.wantServers || sp.Clients != tc.wantClients {
				t.Fatalf("in process %v, %d servers, %d clients; want %v, %d, %d", sp.InProcess, sp.Servers, sp.Clients, tc.inProcess, tc.wantServers, tc.wantClients)
			}
			if sp.InProcess {
				return
			}
			checkShares(t, sp, tc.conns, tc.fanout, tc.lim)
		})
	}
}

// checkShares checks that every stream is held by exactly one client
// process, of the server process stream mod servers, that a client loads
// one server, and that every process stays within its limits.
func checkShares(t *testing.T, sp load.Split, conns, fanout int, lim load.ProcessLimits) {
	t.Helper()
	if len(sp.Shares) != sp.Clients {
		t.Fatalf("%d shares for %d clients", len(sp.Shares), sp.Clients)
	}
	servers := max(sp.Servers, 1)
	seen := make([]int, conns/fanout)
	perServer := make([]int, servers)
	total := 0
	for j, sh := range sp.Shares {
		if sh.Client != j || sh.Server != j%servers {
			t.Errorf("share %d: client %d, server %d; want %d, %d", j, sh.Client, sh.Server, j, j%servers)
		}
		if sh.Conns != len(sh.Streams)*fanout || sh.Conns == 0 {
			t.Errorf("share %d: %d conns for %d streams at fan-out %d", j, sh.Conns, len(sh.Streams), fanout)
		}
		if uint64(sh.Conns)+load.ClientReserve > lim.OpenFiles || (lim.Ports > 0 && sh.Conns > lim.Ports) {
			t.Errorf("share %d: %d conns above the client limits %+v", j, sh.Conns, lim)
		}
		for _, k := range sh.Streams {
			seen[k]++
			if k%servers != sh.Server {
				t.Errorf("stream %d on server %d, want %d", k, sh.Server, k%servers)
			}
		}
		perServer[sh.Server] += sh.Conns
		total += sh.Conns
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("stream %d held by %d client processes, want 1", k, n)
		}
	}
	if total != conns {
		t.Errorf("%d conns in all, want %d", total, conns)
	}
	for i, n := range perServer {
		if sp.Servers > 0 && uint64(n)+load.ServerReserve > lim.OpenFiles {
			t.Errorf("server %d: %d conns above the open file limit %d", i, n, lim.OpenFiles)
		}
	}
}

func TestPlanSplitStreams(t *testing.T) {
	// 8 streams of 5 over 2 servers and 4 clients: server 0 has streams
	// 0, 2, 4, 6, dealt to clients 0 and 2 in turn.
	sp, err := load.PlanSplit(40, 5, 2, 4, false, vmLimits)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}
	for j, sh := range sp.Shares {
		if len(sh.Streams) != len(want[j]) || sh.Streams[0] != want[j][0] || sh.Streams[1] != want[j][1] {
			t.Errorf("client %d streams %v, want %v", j, sh.Streams, want[j])
		}
	}
}

func TestPlanSplitErrors(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		conns, fanout, servers, clients int
		url                             bool
		lim                             load.ProcessLimits
		want                            []string
	}{
		{"one stream too big", 2000, 1000, 0, 0, false, load.ProcessLimits{OpenFiles: 1000}, []string{"-fanout 1000", "1256", "RLIMIT_NOFILE) 1000", "lower -fanout"}},
		{"too few servers", 100000, 100, 2, 0, false, vmLimits, []string{"-servers 2", "50000 connections", "50256", "RLIMIT_NOFILE) 20000", "raise -servers"}},
		{"too few clients", 100000, 100, 6, 3, false, vmLimits, []string{"-clients 3", "multiple", "6 server"}},
		{"clients too full", 100000, 100, 10, 10, false, load.ProcessLimits{OpenFiles: 20000, Ports: 5000}, []string{"-clients 10", "10000 connections", "ip_local_port_range: 5000", "raise -clients"}},
		{"servers with url", 100, 1, 2, 0, true, vmLimits, []string{"-servers 2", "-url"}},
		{"more servers than streams", 40, 10, 5, 0, false, vmLimits, []string{"-servers 5", "4 streams"}},
		{"system-wide", 100000, 100, 0, 0, false, load.ProcessLimits{OpenFiles: 20000, SystemFiles: 150000}, []string{"-conns 100000", "200000", "fs.file-max", "150000", "lower -conns"}},
		{"more than MaxProcesses", 100000, 1, 0, 0, false, load.ProcessLimits{OpenFiles: 1000}, []string{"-conns 100000", "64 server processes", "RLIMIT_NOFILE) 1000"}},
		{"bad -servers", 100, 1, -1, 0, false, vmLimits, []string{"-servers -1", "range"}},
		{"bad -clients", 100, 1, 0, 65, false, vmLimits, []string{"-clients 65", "range"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load.PlanSplit(tc.conns, tc.fanout, tc.servers, tc.clients, tc.url, tc.lim)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestMergeSplit(t *testing.T) {
	_, h1 := histOf(t, seq(100, 10, 10)...)
	_, h2 := histOf(t, seq(5000, 10, 10)...)
	rep := func(h string, cpu float64, rss int64) load.Report {
		return load.Report{Schema: load.Schema, Transport: []load.Result{{
			Transport: "ws", Codec: "encoding/json", Scenario: "ws-message", Conns: 10, Fanout: 5, Streams: 2,
			Rate: 1, Expected: 20, Sent: 4, Delivered: 20, Received: 20, ServerCPUSeconds: cpu, PeakRSSBytes: rss, Histogram: h,
		}}}
	}
	sp, err := load.PlanSplit(40, 5, 2, 4, false, vmLimits)
	if err != nil {
		t.Fatal(err)
	}
	// Clients 0 and 2 load server 0, which they saw use 3 s (the larger
	// of 2 and 3) and 100 bytes; clients 1 and 3 server 1: 5 s, 200 bytes.
	reps := []load.Report{rep(h1, 2, 100), rep(h2, 5, 200), rep(h1, 3, 90), rep(h2, 4, 150)}
	reps[1].Transport[0].Compression = "permessage-deflate"
	mem := load.Processes{Servers: 2, Clients: 4, Conns: 40, ServerBaseRSSBytes: 1000, ServerIdleRSSBytes: 5000, ServerPeakRSSBytes: 9000, ClientPeakRSSBytes: 3000,
		ServerCPUSeconds: 0.002, ClientCPUSeconds: 0.004}
	m, err := load.MergeSplit(reps, sp, mem, load.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Transport[0]
	if r.Conns != 40 || r.Streams != 8 || r.Sent != 16 || r.Received != 80 || r.ServerCPUSeconds != 8 || r.PeakRSSBytes != 300 || r.Compression != "permessage-deflate" {
		t.Errorf("merged %+v, want 40 conns, 8 streams, 16 sent, 80 received, 8 cpu s, 300 peak RSS, permessage-deflate", r)
	}
	p := m.Processes
	if p == nil || p.IdleBytesPerSubscriber != 100 || p.PeakBytesPerSubscriber != 225 || p.PeakBytesPerConn != 300 {
		t.Errorf("processes %+v, want 100 idle and 225 peak bytes per subscriber, 300 per connection", p)
	}
	// 80 messages received: 2 ms of server CPU is 25 µs a message.
	if math.Abs(p.ServerCPUUsPerMsg-25) > 1e-9 || math.Abs(p.ClientCPUUsPerMsg-50) > 1e-9 {
		t.Errorf("CPU per message %v servers, %v clients; want 25 and 50 µs", p.ServerCPUUsPerMsg, p.ClientCPUUsPerMsg)
	}
	// Counted subscribers, when the servers answered, divide the idle RSS.
	mem.IdleSubscribers = 20
	if m, err := load.MergeSplit(reps, sp, mem, load.MergeOptions{}); err != nil || m.Processes.IdleBytesPerSubscriber != 200 {
		t.Errorf("idle bytes per subscriber with 20 subscribed: %v, %v; want 200", m.Processes, err)
	}
	if len(m.Sources) != 4 || m.Sources[3].Name != "client 4 (server 2)" {
		t.Errorf("sources %+v", m.Sources)
	}
	// One client process merges too.
	one, err := load.PlanSplit(10, 5, 1, 1, false, vmLimits)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := load.MergeSplit(reps[:1], one, load.Processes{Servers: 1, Clients: 1, Conns: 10}, load.MergeOptions{}); err != nil {
		t.Errorf("one client: %v", err)
	}
	if _, err := load.MergeSplit(reps[:3], sp, mem, load.MergeOptions{}); err == nil || !strings.Contains(err.Error(), "3 reports for 4 client processes") {
		t.Errorf("3 reports for 4 clients: %v", err)
	}
}
