// Command attacks replays issue 44's attacks on `serbench serve` run as a
// child process, and checks the target for each: the server is
// alive after it (GET /stats answers 200), its peak resident memory
// (VmHWM of /proc/PID/status, reset before each attack through POST
// /stats?reset_peak=1) stays under 1 GiB, a victim stream from another
// client receives at least 90% of the events its rate schedules over the
// attack, and a new stream from another client gets 200 and a first event
// during the attack. The attackers connect from 127.0.0.2 and up (one
// address per attack), the victim and the newcomer from 127.0.0.1, so the
// server's per-client shares apply.
//
//	go run ./scripts/attacks -serbench PATH [-window 2s] [-victim-rate 100]
//
// scripts/attacks.sh builds serbench and runs it (CI runs that, in about
// 40 s). The server is `serbench serve -compress -api-decode '*'`: every
// codec decodes /api bodies, the ones hostile input crashes included,
// which the decode workers must contain. It prints one line per attack,
// with the attacker's answers by status, then the resident bytes per idle
// subscriber (of a shared stream, with and without gzip), per stream and
// per replay stream, each measured on a fresh server; it exits 1 when an
// attack misses the target. It needs Linux (/proc) and the loopback addresses 127.0.0.2 to
// .8 and .100 to .104.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport/sse"
)

// Targets of issue 44.
const (
	maxPeakRSS     = 1 << 30
	minVictimShare = 0.9
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "attacks: %v\n", err)
		os.Exit(1)
	}
}

// target is the server under attack.
type target struct {
	base     string
	pid      int
	attacker *http.Client // from 127.0.0.2 and up, one address per attack
	client   *http.Client // from 127.0.0.1

	mu       sync.Mutex
	statuses map[int]int // the attacker's answers, by status
}

// send sends one request of the attacker, reads its answer and counts
// its status.
func (t *target) send(req *http.Request) {
	resp, err := t.attacker.Do(req)
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	t.count(resp.StatusCode)
}

func (t *target) count(code int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.statuses != nil {
		t.statuses[code]++
	}
}

// answers lists the attacker's answers by status: "400x12 503x3".
func (t *target) answers() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(t.statuses)) {
		parts = append(parts, fmt.Sprintf("%dx%d", code, t.statuses[code]))
	}
	return strings.Join(parts, " ")
}

// attack runs until ctx is done, holding what it took until then.
type attack struct {
	name string
	run  func(ctx context.Context, t *target) error
}

func run(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("attacks", flag.ContinueOnError)
	bin := fs.String("serbench", "", "the serbench binary to run as the server (required)")
	window := fs.Duration("window", 2*time.Second, "how long each attack runs while the victim is counted")
	rate := fs.Int("victim-rate", 100, "the victim stream's rate, in events/s")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" {
		return errors.New("-serbench is required")
	}
	t, stop, err := start(*bin)
	if err != nil {
		return err
	}
	defer stop()
	v, err := startVictim(t, *rate)
	if err != nil {
		return err
	}
	failed := 0
	fmt.Fprintf(stdout, "%-22s %-22s %-10s %-12s %-6s %s\n", "attack", "victim events", "newcomer", "peak RSS", "alive", "attacker's answers")
	for i, a := range attacks() {
		// An address per attack: the streams one leaves linger (serve
		// -linger) and would count against the next one's share.
		t.attacker = clientFrom(byte(2 + i))
		t.statuses = map[int]int{}
		r := t.replay(a, v, *rate, *window)
		ok := r.err == nil && r.share >= minVictimShare && r.newcomer == http.StatusOK && r.peak < maxPeakRSS && r.alive
		if !ok {
			failed++
		}
		fmt.Fprintf(stdout, "%-22s %5d/%-5d (%3.0f%%)   %-10d %6d MiB   %-6v %s%s\n", a.name, r.got, r.scheduled, 100*r.share, r.newcomer, r.peak>>20, r.alive, t.answers(), r.note(ok))
	}
	stop()
	if err := measure(stdout, *bin); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d attacks missed the target (victim >= %.0f%% of its events, newcomer 200, peak RSS < %d MiB, alive)", failed, 100*minVictimShare, maxPeakRSS>>20)
	}
	return nil
}

// start runs bin serve on a free loopback port.
func start(bin string) (*target, func(), error) {
	// Every codec decodes /api bodies, those the default set leaves out
	// as crashing or hanging on hostile input included: the decode
	// workers are what stands between them and the server.
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-compress", "-api-decode", "*")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop := sync.OnceFunc(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, out) }()
	_, addr, found := strings.Cut(line, "http://")
	addr, _, _ = strings.Cut(addr, "/")
	if err != nil || !found {
		stop()
		return nil, nil, fmt.Errorf("serve did not start: %q %v", line, err)
	}
	t := &target{base: "http://" + addr, pid: cmd.Process.Pid, client: clientFrom(1)}
	return t, stop, nil
}

// clientFrom is an HTTP client whose connections come from 127.0.0.ip:
// a client of its own for the server's per-client shares.
func clientFrom(ip byte) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, ip)}}
	// DisableCompression: a request asks for gzip only where it says so
	// (Go's transport would ask on every request otherwise).
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64, DisableCompression: true}}
}

// victim counts the events of a stream of another client.
type victim struct {
	n    atomic.Int64
	errc chan error
}

func startVictim(t *target, rate int) (*victim, error) {
	resp, err := t.client.Get(fmt.Sprintf("%s/sse?scenario=sse-event&codec=encoding/json&rate=%d&stream=victim", t.base, rate))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("victim: %s", resp.Status)
	}
	v := &victim{errc: make(chan error, 1)}
	go func() {
		defer resp.Body.Close()
		rd := sse.NewReader(resp.Body)
		for {
			if _, err := rd.Next(); err != nil {
				v.errc <- fmt.Errorf("victim stream ended after %d events: %w", v.n.Load(), err)
				return
			}
			v.n.Add(1)
		}
	}()
	return v, nil
}

// result is one attack's figures.
type result struct {
	got, scheduled int64
	share          float64
	newcomer       int
	peak           int64
	alive          bool
	err            error
}

func (r result) note(ok bool) string {
	if r.err != nil {
		return "  " + r.err.Error()
	}
	if !ok {
		return "  MISSED"
	}
	return ""
}

// replay resets the server's peak RSS, runs a for window while counting
// the victim's events and asking for a new stream halfway, then checks
// that the server answers and reads its peak.
func (t *target) replay(a attack, v *victim, rate int, window time.Duration) (r result) {
	if resp, err := t.client.Post(t.base+"/stats?reset_peak=1", "", nil); err == nil {
		resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), window+window/2)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- a.run(ctx, t) }()
	time.Sleep(window / 2) // the attack takes hold
	n0, t0 := v.n.Load(), time.Now()
	half := time.After(window / 2)
	<-half
	r.newcomer = t.newStream(a.name)
	<-ctx.Done()
	r.got, r.scheduled = v.n.Load()-n0, int64(time.Since(t0).Seconds()*float64(rate))
	r.share = float64(r.got) / float64(max(r.scheduled, 1))
	r.err = <-errc
	select {
	case err := <-v.errc:
		r.err = errors.Join(r.err, err)
	default:
	}
	resp, err := t.client.Get(t.base + "/stats")
	if err == nil {
		resp.Body.Close()
		r.alive = resp.StatusCode == http.StatusOK
	}
	r.peak, _ = peakRSS(t.pid)
	return r
}

// newStream asks for a new stream from the victim's client and returns
// its status once its first event arrived (or 0 if none did).
func (t *target) newStream(name string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", t.base+"/sse?scenario=ws-message&codec=encoding/json&rate=50&stream=newcomer-"+name, nil)
	resp, err := t.client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		if _, err := sse.NewReader(resp.Body).Next(); err != nil {
			return 0
		}
	}
	return resp.StatusCode
}

// peakRSS reads VmHWM of process pid.
func peakRSS(pid int) (int64, error) {
	return statusBytes(pid, "VmHWM:")
}

// statusBytes reads a "Field: N kB" line of /proc/PID/status.
func statusBytes(pid int, field string) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// attacks are issue 44's, in its order, at the sizes it gave where a
// loopback run of a few seconds allows.
func attacks() []attack {
	return []attack{
		{"decode-bombs", decodeBombs},
		{"hostile-decodes", hostileDecodes},
		{"stream-table", streamTable},
		{"reservations", reservations},
		{"api-amplification", amplification},
		{"idle-gzip-subscribers", func(ctx context.Context, t *target) error { return t.hold(ctx, 900, "&rate=0.01", true) }},
		{"replay-buffers", func(ctx context.Context, t *target) error {
			return t.hold(ctx, 300, "&count=128&rate=15&start="+strconv.FormatInt(time.Now().Add(-9*time.Second).UnixNano(), 10), false)
		}},
	}
}

// encode is the seed value of scenario sc in codec id.
func encode(id, sc string) ([]byte, error) {
	cs, err := all.Registry().Select([]string{id})
	if err != nil {
		return nil, err
	}
	ss, err := scenario.Select(scenario.Seeds(), []string{sc})
	if err != nil {
		return nil, err
	}
	b, err := cs[0].Bind(ss[0].Value())
	if err != nil {
		return nil, err
	}
	return codec.Encode(b, ss[0].Value())
}

// post sends body until ctx is done from each of conns goroutines.
func (t *target) post(ctx context.Context, conns int, u string, body []byte) {
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, "POST", u, strings.NewReader(string(body)))
				t.send(req)
			}
		})
	}
	wg.Wait()
}

// decodeBombs: (1) and (6), the shared-offset FlatBuffer and its Cap'n
// Proto counterpart, posted from 20 connections.
func decodeBombs(ctx context.Context, t *target) error {
	var wg sync.WaitGroup
	for _, c := range []struct{ id, format string }{{"flatbuffers/lazy", hostile.FormatFlatBuffers}, {"capnp/lazy", hostile.FormatCapnp}} {
		valid, err := encode(c.id, "user-event")
		if err != nil {
			return err
		}
		dag := hostile.Amplifications(c.format, valid, hostile.DefaultFanout)[0].Data
		wg.Go(func() { t.post(ctx, 10, t.base+"/api/http/user-event?codec="+c.id, dag) })
	}
	wg.Wait()
	return nil
}

// hostileDecodes: a decode that outruns its time or its memory, from a
// codec the default set leaves out for that (the server runs with
// -api-decode '*'): serbench hostile's length claims of 2^32 and more
// and deep nesting, for msgpack and gob, posted from 8 connections. Each
// such decode ends its worker; the server goes on.
func hostileDecodes(ctx context.Context, t *target) error {
	var bodies []struct {
		id   string
		data []byte
	}
	for _, c := range []struct{ id, format string }{{"msgpack", hostile.FormatMessagePack}, {"gob", hostile.FormatGob}} {
		valid, err := encode(c.id, "user-event")
		if err != nil {
			return err
		}
		for _, in := range append(hostile.Heads(c.format, valid), hostile.Nesting(c.format, 1<<20)...) {
			bodies = append(bodies, struct {
				id   string
				data []byte
			}{c.id, in.Data})
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := g; ctx.Err() == nil; i += 8 {
				b := bodies[i%len(bodies)]
				req, _ := http.NewRequestWithContext(ctx, "POST", t.base+"/api/http/user-event?codec="+b.id, strings.NewReader(string(b.data)))
				t.send(req)
			}
		})
	}
	wg.Wait()
	return nil
}

// streamTable: (2), unique stream= names by HEAD and GET.
func streamTable(ctx context.Context, t *target) error {
	for i := 0; ctx.Err() == nil && i < 24000; i++ {
		method := "GET"
		if i%2 == 1 {
			method = "HEAD"
		}
		req, _ := http.NewRequestWithContext(ctx, method, fmt.Sprintf("%s/sse?scenario=sse-event&codec=cbor&rate=1&stream=fill%d", t.base, i), nil)
		if method == "HEAD" {
			t.send(req)
			continue
		}
		resp, err := t.attacker.Do(req) // a stream: close it, do not read it
		if err == nil {
			resp.Body.Close()
			t.count(resp.StatusCode)
		}
	}
	<-ctx.Done()
	return nil
}

// reservations: (3), ten idle subscriptions at 10,000 messages/s an hour
// ahead.
func reservations(ctx context.Context, t *target) error {
	start := strconv.FormatInt(time.Now().Add(time.Hour).UnixNano(), 10)
	return t.subscribe(ctx, 10, func(i int) string {
		return fmt.Sprintf("/sse?scenario=sse-event&codec=cbor&rate=10000&stream=r%d&start=%s", i, start)
	}, false, nil)
}

// amplification: (4), a 1 MB {"items":[{},{},...]} posted 32 at a time.
func amplification(ctx context.Context, t *target) error {
	body := []byte(`{"items":[{}` + strings.Repeat(`,{}`, (1<<20-16)/3) + `]}`)
	t.post(ctx, 32, t.base+"/api/http/user-event?codec=encoding/json", body)
	return nil
}

// hold opens n subscriptions to streams of their own with query q, reads
// nothing from them, and holds them until ctx is done: (5).
func (t *target) hold(ctx context.Context, n int, q string, gzip bool) error {
	return t.subscribe(ctx, n, func(i int) string {
		return fmt.Sprintf("/sse?scenario=sse-event&codec=cbor&stream=h%d%s", i, q)
	}, gzip, nil)
}

// subscribe opens n streams from the attacker and holds them until ctx is
// done; a refusal is not an error (the attack is what a share stops).
// ready, when not nil, gets the number of 200s once all n were asked.
func (t *target) subscribe(ctx context.Context, n int, path func(i int) string, gzip bool, ready func(ok int)) error {
	var bodies []io.Closer
	ok := 0
	defer func() {
		for _, b := range bodies {
			b.Close()
		}
	}()
	for i := range n {
		req, _ := http.NewRequestWithContext(ctx, "GET", t.base+path(i), nil)
		if gzip {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		resp, err := t.attacker.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return err
		}
		t.count(resp.StatusCode)
		if resp.StatusCode == http.StatusOK {
			ok++
		}
		bodies = append(bodies, resp.Body)
	}
	if ready != nil {
		ready(ok)
	}
	<-ctx.Done()
	return nil
}

// measure starts a fresh server for each figure (a server that freed
// memory would reuse it and show less), opens idle subscriptions (plain,
// then gzip) or replay streams from a client of their own, and prints the
// server's resident bytes they add, per subscription or stream.
func measure(w io.Writer, bin string) error {
	for k, m := range []struct {
		name   string
		n      int
		q      string
		gzip   bool
		shared bool // every subscription on one stream
	}{
		{"idle subscriber of one stream", 500, "&rate=0.01", false, true},
		{"idle gzip subscriber of one stream", 500, "&rate=0.01", true, true},
		{"idle subscriber with a stream of its own (one event sent)", 500, "&rate=0.01", false, false},
		{"idle gzip subscriber with a stream of its own (one event sent)", 500, "&rate=0.01", true, false},
		{"replay stream (count=128, rate=15, start=now-9s)", 300, "&count=128&rate=15&start=NOW-9s", false, false},
	} {
		t, stop, err := start(bin)
		if err != nil {
			return err
		}
		if err := t.measure(w, byte(100+k), m.name, m.n, m.q, m.gzip, m.shared); err != nil {
			stop()
			return err
		}
		stop()
	}
	return nil
}

func (t *target) measure(w io.Writer, ip byte, name string, n int, q string, gzip, shared bool) error {
	// One subscription first, so the figure leaves out what the first
	// stream of a process sets up once.
	t.attacker = clientFrom(ip)
	t.statuses = map[int]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan error, 2)
	ready := make(chan int, 2)
	sub := func(from, count int) {
		opened <- t.subscribe(ctx, count, func(i int) string {
			// NOW-9s is 9 s before this request (the server refuses a
			// start too far in the past).
			q := strings.ReplaceAll(q, "NOW-9s", strconv.FormatInt(time.Now().Add(-9*time.Second).UnixNano(), 10))
			if shared {
				return "/sse?scenario=sse-event&codec=cbor&stream=shared" + q
			}
			return fmt.Sprintf("/sse?scenario=sse-event&codec=cbor&stream=m%d%s", from+i, q)
		}, gzip, func(ok int) { ready <- ok })
	}
	wait := func() (int, error) {
		select {
		case ok := <-ready:
			// The server settles.
			time.Sleep(1500 * time.Millisecond)
			return ok, nil
		case err := <-opened:
			return 0, fmt.Errorf("%s: %v", name, err)
		}
	}
	go sub(0, 1)
	if _, err := wait(); err != nil {
		return err
	}
	before, err := env.ResidentBytes(t.pid)
	if err != nil {
		return err
	}
	go sub(1, n)
	ok, err := wait()
	if err != nil {
		return err
	}
	after, err := env.ResidentBytes(t.pid)
	if err != nil {
		return err
	}
	if ok == 0 {
		return fmt.Errorf("%s: none of %d subscriptions served (%s)", name, n, t.answers())
	}
	fmt.Fprintf(w, "resident bytes per %s: %d (%d of %d served; RSS %d -> %d MiB)\n", name, (after-before)/int64(ok), ok, n, before>>20, after>>20)
	return nil
}
