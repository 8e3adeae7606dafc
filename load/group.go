package load

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
)

// Histogram range: 1µs to 10 minutes, 3 significant digits.
const (
	histMaxUs = int64(10 * time.Minute / time.Microsecond)
	histShard = 16 // connections share histograms by index modulo histShard
)

// group gathers the measurements of the connections of one codec in a phase.
type group struct {
	codec    codec.Codec
	scenario scenario.Scenario
	binary   bool
	count    uint64 // messages per connection
	// skipUnmarshal leaves payloads undecoded (Options.SkipUnmarshal).
	skipUnmarshal bool

	shards [histShard]struct {
		mu sync.Mutex
		h  *hdrhistogram.Histogram
	}
	wireBytes atomic.Int64 // bytes read from the sockets
	lastRecv  atomic.Int64 // Unix ns of the last message received by a finished connection

	// compressed is set when the server compressed a connection's stream.
	compressed atomic.Bool
	sw         *switchGroup // nil unless the phase switches codec (switch.go)

	mu     sync.Mutex
	totals connStats
	conns  int
	// lossyConns and disorderedConns count connections that lost a
	// message and that received one out of order.
	lossyConns, disorderedConns uint64
	errs                        []error // first few connection errors, for the report
}

func newGroup(c codec.Codec, s scenario.Scenario, count uint64) *group {
	g := &group{codec: c, scenario: s, binary: c.Info().Binary, count: count}
	for i := range g.shards {
		g.shards[i].h = hdrhistogram.New(1, histMaxUs, 3)
	}
	return g
}

// connStats are one connection's counters.
type connStats struct {
	received     uint64 // distinct messages in order (the next expected or later)
	lost         uint64 // expected messages never received
	duplicates   uint64 // messages at or before one already received
	decodeErrors uint64
	errors       uint64 // connections that failed or ended early
	reconnects   uint64
	payloadBytes uint64
	base64Bytes  uint64
	checkNs      uint64 // thread CPU of the connection's checks (Result.CheckCPUSeconds)
}

func (a *connStats) add(b connStats) {
	a.received += b.received
	a.lost += b.lost
	a.duplicates += b.duplicates
	a.decodeErrors += b.decodeErrors
	a.errors += b.errors
	a.reconnects += b.reconnects
	a.payloadBytes += b.payloadBytes
	a.base64Bytes += b.base64Bytes
	a.checkNs += b.checkNs
}

// conn is the client side of one connection: it checks sequence numbers,
// decodes payloads and records latencies.
type conn struct {
	g       *group
	idx     int
	binding codec.Binding
	next    uint64 // next expected sequence number
	lastID  int64  // last sequence number received, -1 before any
	checked bool   // first payload compared with the scenario value
	// lastRecv is when the last message arrived, Unix ns: kept here, not
	// in the group that every connection's goroutine would write once a
	// message, and taken into the group's at finish.
	lastRecv int64
	st       connStats
	sw       *switchConn // nil unless the phase switches codec (switch.go)
}

func (g *group) newConn(idx int) (*conn, error) {
	var b codec.Binding
	var err error
	ns := threadCPU(func() { b, err = g.codec.Bind(g.scenario.Value()) })
	if err != nil {
		return nil, fmt.Errorf("load: bind %s: %w", g.codec.Info().ID, err)
	}
	c := &conn{g: g, idx: idx, binding: b, lastID: -1}
	c.st.checkNs = ns
	return c, nil
}

// threadCPU runs f on this goroutine's thread and returns the thread's CPU
// time over it in ns (env.ThreadCPUTime), 0 where that cannot be read.
func threadCPU(f func()) uint64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, err0 := env.ThreadCPUTime()
	f()
	t1, err1 := env.ThreadCPUTime()
	if err0 != nil || err1 != nil || t1 < t0 {
		return 0
	}
	return uint64(t1 - t0)
}

// preamble starts the decoding state of a new connection whose server sent
// the preamble p (encodedLen bytes on the wire): a new Binding that has
// read it replaces the connection's, so a reconnection decodes with the
// new server encoder's state. Its bytes count as payload: they are on the
// wire, once per connection.
func (c *conn) preamble(p []byte, encodedLen int) {
	c.st.payloadBytes += uint64(len(p))
	c.st.base64Bytes += uint64(encodedLen - len(p))
	b, err := c.g.codec.Bind(c.g.scenario.Value())
	if err == nil {
		if pr, ok := b.(codec.Preambler); ok {
			err = pr.ReadPreamble(p)
		} else {
			err = fmt.Errorf("load: %s sent a preamble but its Binding reads none", c.g.codec.Info().ID)
		}
	}
	if err != nil {
		c.st.decodeErrors++
		return
	}
	c.binding = b
}

// message handles one received message: seq and intended (Unix ns) from
// the framing, payload the raw codec bytes; encodedLen is the payload's
// length on the wire (base64 included).
func (c *conn) message(now time.Time, seq uint64, intended int64, payload []byte, encodedLen int) {
	c.st.payloadBytes += uint64(len(payload))
	c.st.base64Bytes += uint64(encodedLen - len(payload))
	if !c.g.skipUnmarshal {
		c.decode(seq, payload)
	}
	if seq < c.next {
		c.st.duplicates++
		return
	}
	c.st.lost += seq - c.next
	c.next = seq + 1
	c.lastID = int64(seq)
	c.st.received++
	us := max((now.UnixNano()-intended)/1e3, 1)
	sh := &c.g.shards[c.idx%histShard]
	sh.mu.Lock()
	_ = sh.h.RecordValue(min(us, histMaxUs)) // clamped into range
	sh.mu.Unlock()
	c.lastRecv = now.UnixNano() // the group's is the largest, at finish
}

// decode unmarshals payload and counts a failure; the connection's first
// message is also compared with its scenario's (group.diff).
func (c *conn) decode(seq uint64, payload []byte) {
	v, err := c.binding.Unmarshal(payload)
	if err == nil && !c.checked {
		c.checked = true
		c.st.checkNs += threadCPU(func() {
			if v, err = codec.Value(c.binding, v); err == nil {
				err = c.g.diff(seq, v)
			}
		})
	}
	if err != nil {
		c.st.decodeErrors++
	}
}

// finish adds the connection's counters to its group; the messages the
// stream should have carried but never arrived are lost.
func (c *conn) finish(err error) {
	if c.sw != nil {
		c.sw.finish(c)
	}
	if c.next < c.g.count {
		c.st.lost += c.g.count - c.next
	}
	c.g.mu.Lock()
	if c.lastRecv > c.g.lastRecv.Load() {
		c.g.lastRecv.Store(c.lastRecv)
	}
	c.g.totals.add(c.st)
	c.g.conns++
	if c.st.lost > 0 {
		c.g.lossyConns++
	}
	if c.st.duplicates > 0 {
		c.g.disorderedConns++
	}
	if err != nil && len(c.g.errs) < 5 {
		c.g.errs = append(c.g.errs, err)
	}
	c.g.mu.Unlock()
}

func (g *group) histogram() *hdrhistogram.Histogram {
	h := hdrhistogram.New(1, histMaxUs, 3)
	for i := range g.shards {
		g.shards[i].mu.Lock()
		h.Merge(g.shards[i].h)
		g.shards[i].mu.Unlock()
	}
	return h
}

// dialer returns a DialContext that refuses non-loopback peers and counts
// the bytes read into g.wireBytes.
func (g *group) dialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	return loopbackDialer(&g.wireBytes)
}

// loopbackDialer returns a DialContext that refuses non-loopback peers
// (after resolving, so "localhost" is checked too) and adds the bytes read
// from its connections to n.
func loopbackDialer(n *atomic.Int64) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if ta, ok := nc.RemoteAddr().(*net.TCPAddr); !ok || !ta.IP.IsLoopback() {
			nc.Close()
			return nil, fmt.Errorf("load: refusing peer %v: %w", nc.RemoteAddr(), ErrNotLoopback)
		}
		return &countingConn{Conn: nc, n: n}, nil
	}
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// diff checks v, the decoding of message seq, against what the server
// sent: a message corpus's message seq modulo their number (the server
// cycles through them, transport's Hub), else the scenario's value.
func (g *group) diff(seq uint64, v any) error {
	if ms := g.scenario.Messages; len(ms) > 0 {
		return ms[seq%uint64(len(ms))].Diff(v)
	}
	return g.scenario.Diff(v)
}
