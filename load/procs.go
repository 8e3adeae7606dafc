package load

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/serbench/serbench/transport/server"
)

// Descriptors a process keeps besides its connections when push load is
// split over processes (PlanSplit): a server process keeps
// server.DescriptorReserve (listener, files, accept queue), a client
// process ClientReserve (its stats client, files, pipes).
const (
	ServerReserve = server.DescriptorReserve
	ClientReserve = 64
)

// MaxProcesses caps Split.Servers and Split.Clients.
const MaxProcesses = 64

// ProcessLimits are the operating system's limits that decide how push
// load spreads over processes (ReadProcessLimits reads this machine's).
type ProcessLimits struct {
	// OpenFiles is one process's hard RLIMIT_NOFILE: its soft limit can be
	// raised to it, not beyond. Required.
	OpenFiles uint64
	// Ports is how many ephemeral ports one (source address, destination
	// address and port) pair can use: the size of Linux's
	// net.ipv4.ip_local_port_range (28,232 by default). Every client
	// process connects from 127.0.0.1 to one server address, so it holds
	// at most this many connections. 0: unknown, not checked.
	Ports int
	// SystemFiles is the system-wide open file limit (Linux fs.file-max);
	// every process's descriptors together stay under it. 0: unknown, not
	// checked.
	SystemFiles uint64
}

// ReadProcessLimits returns this machine's ProcessLimits: the hard
// RLIMIT_NOFILE, and on Linux the port range and fs.file-max from /proc
// (0 where they cannot be read).
func ReadProcessLimits() (ProcessLimits, error) {
	_, hard, err := server.OpenFileLimits()
	if err != nil {
		return ProcessLimits{}, fmt.Errorf("load: %w", err)
	}
	lim := ProcessLimits{OpenFiles: hard}
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			lo, err1 := strconv.Atoi(f[0])
			hi, err2 := strconv.Atoi(f[1])
			if err1 == nil && err2 == nil && hi >= lo {
				lim.Ports = hi - lo + 1
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/fs/file-max"); err == nil {
		if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil {
			lim.SystemFiles = n
		}
	}
	return lim, nil
}

// Split is how push load of Conns connections at Fanout spreads over
// processes. Stream k (of Conns/Fanout) is served by server process
// k mod Servers, so a stream's Fanout subscribers all reach one process
// and share its one encode of each message; a server's streams are dealt
// round-robin to its Clients/Servers client processes (client j loads
// server j mod Servers). Each client process holds whole streams.
type Split struct {
	// InProcess is the unsplit run: the server (unless a URL is given) and
	// the client in this process, as without -servers and -clients.
	InProcess bool
	// Servers is the server processes (0 with a URL: the target is one
	// server not started here); Clients the client processes.
	Servers, Clients int
	// Shares holds each client process's streams, by client.
	Shares []Share
}

// Share is one client process's part of a Split.
type Share struct {
	// Client and Server number the client process and the server process
	// it loads, from 0.
	Client, Server int
	// Streams are the stream numbers (of the whole run, from 0) whose
	// subscribers this client holds; Conns is len(Streams) × fan-out.
	Streams []int
	Conns   int
}

// PlanSplit spreads conns connections (a multiple of fanout) over server
// and client processes within lim. servers and clients are the requested
// counts (-servers, -clients; 0: the fewest that fit); withURL says the
// target is a given server, so no server process is started (servers must
// be 0). Without a URL, when both are 0 and this one process can hold the
// server's and the client's descriptors (two per connection, plus
// ClientReserve), the result is InProcess. A server process needs its
// connections plus ServerReserve descriptors, a client process its
// connections plus ClientReserve, and no client more connections than
// lim.Ports. Errors name the limit and the flag to change: a fan-out whose
// one stream does not fit in a process (-fanout), a count of processes
// too small or above MaxProcesses or the streams (-servers, -clients), or
// descriptors above lim.SystemFiles in all (-conns).
func PlanSplit(conns, fanout, servers, clients int, withURL bool, lim ProcessLimits) (Split, error) {
	switch {
	case conns < 1 || fanout < 1 || conns%fanout != 0:
		return Split{}, fmt.Errorf("load: split %d connections at fan-out %d: want conns a positive multiple of fanout", conns, fanout)
	case lim.OpenFiles == 0:
		return Split{}, fmt.Errorf("load: split: open file limit unknown")
	case servers < 0 || servers > MaxProcesses:
		return Split{}, fmt.Errorf("load: invalid -servers %d (range is [0, %d]; 0 chooses)", servers, MaxProcesses)
	case clients < 0 || clients > MaxProcesses:
		return Split{}, fmt.Errorf("load: invalid -clients %d (range is [0, %d]; 0 chooses)", clients, MaxProcesses)
	case withURL && servers > 0:
		return Split{}, fmt.Errorf("load: -servers %d with -url: the server at -url is not started here (drop -servers)", servers)
	}
	streams := conns / fanout
	if servers == 0 && clients == 0 && fitsInProcess(conns, withURL, lim.OpenFiles) {
		return Split{InProcess: true, Servers: boolInt(!withURL), Clients: 1}, nil
	}
	if withURL && clients == 1 {
		// One client, this process: whether it fits is checkPushDescriptors'.
		return Split{InProcess: true, Clients: 1}, nil
	}
	if err := checkSystemFiles(conns, lim); err != nil {
		return Split{}, err
	}
	// A stream's subscribers share a server process and a client process.
	if need := uint64(fanout) + ServerReserve; need > lim.OpenFiles {
		return Split{}, fmt.Errorf("load: -fanout %d puts %d connections on one stream, whose subscribers share one server process: it needs %d file descriptors, above the hard open file limit (RLIMIT_NOFILE) %d: lower -fanout", fanout, fanout, need, lim.OpenFiles)
	}
	nServers := 1 // with a URL, one target
	if !withURL {
		var err error
		if nServers, err = chooseServers(conns, fanout, servers, lim); err != nil {
			return Split{}, err
		}
	}
	nClients, err := chooseClients(streams, fanout, nServers, clients, lim)
	if err != nil {
		return Split{}, err
	}
	sp := Split{Servers: nServers, Clients: nClients, Shares: make([]Share, nClients)}
	if withURL {
		sp.Servers = 0
	}
	per := nClients / nServers // client processes per server
	for j := range sp.Shares {
		sp.Shares[j] = Share{Client: j, Server: j % nServers}
	}
	for k := range streams {
		j := k%nServers + nServers*((k/nServers)%per)
		sp.Shares[j].Streams = append(sp.Shares[j].Streams, k)
		sp.Shares[j].Conns += fanout
	}
	return sp, nil
}

// fitsInProcess reports whether one process holds conns connections of
// load (and with its server in-process, their other ends too).
func fitsInProcess(conns int, withURL bool, openFiles uint64) bool {
	return pushDescriptors(conns, !withURL) <= openFiles
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkSystemFiles fails when the descriptors of conns connections at both
// ends exceed the system-wide limit, however they are split.
func checkSystemFiles(conns int, lim ProcessLimits) error {
	need := 2 * uint64(conns)
	if lim.SystemFiles > 0 && need > lim.SystemFiles {
		return fmt.Errorf("load: -conns %d needs %d file descriptors at both ends, above the system-wide limit (fs.file-max) %d, however it is split over processes: lower -conns", conns, need, lim.SystemFiles)
	}
	return nil
}

// maxShare is the connections of the largest of n parts of streams
// streams dealt round-robin, at fanout connections each.
func maxShare(streams, n, fanout int) int {
	return (streams + n - 1) / n * fanout
}

// chooseServers returns the server processes: servers when it fits, or the
// fewest that do when it is 0.
func chooseServers(conns, fanout, servers int, lim ProcessLimits) (int, error) {
	streams := conns / fanout
	fits := func(n int) bool { return uint64(maxShare(streams, n, fanout))+ServerReserve <= lim.OpenFiles }
	if servers > 0 {
		if servers > streams {
			return 0, fmt.Errorf("load: -servers %d is more than the %d streams (-conns/-fanout): a server process would have none; lower -servers", servers, streams)
		}
		if !fits(servers) {
			need := uint64(maxShare(streams, servers, fanout)) + ServerReserve
			return 0, fmt.Errorf("load: -servers %d puts %d connections on one server process, which needs %d file descriptors, above the hard open file limit (RLIMIT_NOFILE) %d: raise -servers (0 chooses)", servers, maxShare(streams, servers, fanout), need, lim.OpenFiles)
		}
		return servers, nil
	}
	for n := 1; n <= min(streams, MaxProcesses); n++ {
		if fits(n) {
			return n, nil
		}
	}
	return 0, fmt.Errorf("load: -conns %d needs more than %d server processes under the hard open file limit (RLIMIT_NOFILE) %d: lower -conns", conns, MaxProcesses, lim.OpenFiles)
}

// chooseClients returns the client processes, a multiple of servers:
// clients when it fits, or the fewest that do when it is 0.
func chooseClients(streams, fanout, servers, clients int, lim ProcessLimits) (int, error) {
	fewest := (streams + servers - 1) / servers // streams of the busiest server
	need := func(n int) (files uint64, conns int) {
		c := maxShare(fewest, n/servers, fanout)
		return uint64(c) + ClientReserve, c
	}
	fits := func(n int) bool {
		files, c := need(n)
		return files <= lim.OpenFiles && (lim.Ports == 0 || c <= lim.Ports)
	}
	if clients > 0 {
		if clients%servers != 0 {
			return 0, fmt.Errorf("load: -clients %d is not a multiple of the %d server processes (-servers): each client process loads one server", clients, servers)
		}
		if clients/servers > streams/servers {
			return 0, fmt.Errorf("load: -clients %d is more than the %d streams (-conns/-fanout) allow: a client process would have none; lower -clients", clients, streams)
		}
		if !fits(clients) {
			files, c := need(clients)
			return 0, fmt.Errorf("load: -clients %d puts %d connections on one client process, which needs %d file descriptors (hard open file limit, RLIMIT_NOFILE, %d) and %d ephemeral ports from one source address (net.ipv4.ip_local_port_range: %d): raise -clients (0 chooses)", clients, c, files, lim.OpenFiles, c, lim.Ports)
		}
		return clients, nil
	}
	for n := servers; n <= MaxProcesses && n/servers <= streams/servers; n += servers {
		if fits(n) {
			return n, nil
		}
	}
	return 0, fmt.Errorf("load: %d streams at -fanout %d need more than %d client processes under the hard open file limit (RLIMIT_NOFILE) %d: lower -conns", streams, fanout, MaxProcesses, lim.OpenFiles)
}
