package server_test

// Issue 44's attacks, replayed as issue 33's are in hostile_test.go: the
// attacker is another client (it connects from 127.0.0.2, the victim and
// the newcomer from 127.0.0.1), and each case asserts that the server is
// alive after it (the victim's events keep coming, in order), that a new
// stream from another client gets 200 while the attack holds what it
// took, and that the heap stays under heapCap (watchHeap). The caps are
// scaled down with the counts (a 200-stream table instead of 20,000) so
// that the suite takes seconds; the refusals are the ones at full size.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/transport"
)

// attacker is an HTTP client whose connections come from 127.0.0.2: a
// client other than the victim's for the per-client shares.
func attacker(t *testing.T) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	c, err := d.Dial("tcp", "127.0.0.1:1") // a refused connection, or it is the local address that fails
	if err == nil {
		c.Close()
	} else if strings.Contains(err.Error(), "assign requested address") {
		t.Skipf("cannot connect from 127.0.0.2: %v", err)
	}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// newStream asserts that a new stream from the victim's client is served
// (200 and a first event), and closes it.
func newStream(t *testing.T, base, name string) {
	t.Helper()
	resp, err := http.Get(base + "/sse?scenario=ws-message&codec=encoding/json&rate=50&stream=" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		t.Fatalf("a new stream from another client during the attack: %s %q, want 200", resp.Status, b)
	}
}

// Issue 44 (2): one client filled the 20,000-stream table in 0.9 s with
// 24,000 HEADs on unique stream= names, holding nothing, and every new
// stream got 503 for 10 s. A HEAD now creates no stream, and a client's
// GETs stop at its share (-max-client-streams), with a refusal naming it.
func TestAttackStreamTable(t *testing.T) {
	o := hostileOptions()
	o.Hub.MaxStreams, o.Hub.MaxClientStreams = 200, 50
	base, srv, v, _ := hostileStart(t, o)
	c := attacker(t)
	refused := 0
	for i := range 300 {
		method := "GET"
		if i%2 == 1 {
			method = "HEAD"
		}
		req, err := http.NewRequest(method, fmt.Sprintf("%s/sse?scenario=sse-event&codec=cbor&rate=1&stream=fill%d", base, i), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			b, _ := io.ReadAll(resp.Body)
			if refused++; method == "GET" && (!strings.Contains(string(b), "client 127.0.0.2 created 50 live streams") || !strings.Contains(string(b), "-max-client-streams")) {
				t.Errorf("refusal %q, want one naming the client's 50 streams and -max-client-streams", b)
			}
		}
		resp.Body.Close() // a GET's stream lingers without its subscriber
	}
	if refused == 0 || srv.Hub.Streams() > 1+50 {
		t.Errorf("%d refused, %d live streams; want refusals past the attacker's 50 (+1, the victim's)", refused, srv.Hub.Streams())
	}
	newStream(t, base, "newcomer")
	v.progress(t, 20)
}

// Issue 44 (3): ten idle connections asking rate=10000&start=<an hour
// ahead> held the whole 100,000 messages/s budget, and new streams got
// 503. A subscription whose start is ahead now holds no budget until it
// starts.
func TestAttackReservations(t *testing.T) {
	base, srv, v, _ := hostileStart(t, hostileOptions()) // budget 5,000 messages/s
	c := attacker(t)
	start := strconv.FormatInt(time.Now().Add(time.Hour).UnixNano(), 10)
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	for i := range 10 {
		resp, err := c.Get(fmt.Sprintf("%s/sse?scenario=sse-event&codec=cbor&rate=1000&stream=r%d&start=%s", base, i, start))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("reservation %d: %s", i, resp.Status)
		}
		t.Cleanup(func() { resp.Body.Close() })
		wg.Go(func() { _, _ = io.Copy(io.Discard, resp.Body) })
	}
	if n, rate := srv.Hub.Subscribers(); n != 11 || rate != victimRate {
		t.Errorf("Subscribers() = %d, %g; want 11 holding only the victim's %d messages/s", n, rate, victimRate)
	}
	resp, err := http.Get(base + "/sse?scenario=ws-message&codec=encoding/json&rate=4000&stream=big")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a 4,000 messages/s stream beside ten reservations of 1,000 an hour ahead: %s, want 200", resp.Status)
	}
	newStream(t, base, "newcomer")
	v.progress(t, 20)
}

// Issue 44 (1) and (6): a 160 KB FlatBuffer whose vectors reference one
// entry 20,000 times expanded to 4x10^8 objects and killed serve through
// flatbuffers/lazy; twenty connections posting a smaller one took every
// decode slot, so that legitimate POSTs got 503. Now the DAG is a 400
// naming the bound, and one client's posts take at most its share of the
// slots (-api-max-client-decodes) while another's are answered.
func TestAttackDecodes(t *testing.T) {
	o := hostileOptions()
	// The flood keeps both cores of a small machine busy, the test's own
	// victim reader among what waits: a queue of 20 s at victimRate, so
	// that the victim is not cut off as a slow reader (what this checks
	// is that it is served at all, not how fast a starved reader reads).
	o.Hub.QueueLen = 20 * victimRate
	// Nor are the legitimate POSTs cut off as slow bodies: the slowloris
	// timeouts are hostile_test.go's subject, not this test's.
	o.ReadHeaderTimeout, o.ReadTimeout, o.WriteTimeout = 10*time.Second, 10*time.Second, 10*time.Second
	base, _, v, _ := hostileStart(t, o)
	valid := encode(t, "flatbuffers/lazy", "user-event")
	dag := hostile.Amplifications(hostile.FormatFlatBuffers, valid, hostile.DefaultFanout)[0].Data
	u := base + "/api/http/user-event?codec=flatbuffers/lazy"
	code, _, body := request(t, "POST", u, nil, dag)
	if code != http.StatusBadRequest || !strings.Contains(body, "expansion limit exceeded") {
		t.Fatalf("the %d-byte DAG: %d %.200q, want 400 naming the expansion limit", len(dag), code, body)
	}
	c := attacker(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 8 { // twice its share of slots
		wg.Go(func() {
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, "POST", u, strings.NewReader(string(dag)))
				if resp, err := c.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		})
	}
	defer wg.Wait()
	defer cancel()
	// A connection of its own per POST: the server's 1 s idle timeout
	// may close a kept-alive one as the next POST goes out (EOF).
	legit := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for i := range 8 {
		resp, err := legit.Post(u, "", strings.NewReader(string(valid)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("legitimate POST %d during the flood: %s %q, want 200", i, resp.Status, b)
		}
	}
	newStream(t, base, "newcomer")
	v.progress(t, 20)
}

// The shares' defaults let one client hold at most a fraction of each cap.
func TestShareDefaults(t *testing.T) {
	o, err := transport.Options{}.Effective()
	if err != nil {
		t.Fatal(err)
	}
	if o.MaxClientStreams*10 > o.MaxStreams || o.MaxClientSubscribers*10 > o.MaxSubscribers || o.MaxClientRate*2 > o.MaxTotalRate {
		t.Errorf("default shares %d streams, %d subscribers, %g messages/s of %d, %d, %g: one client could take half or more",
			o.MaxClientStreams, o.MaxClientSubscribers, o.MaxClientRate, o.MaxStreams, o.MaxSubscribers, o.MaxTotalRate)
	}
}
