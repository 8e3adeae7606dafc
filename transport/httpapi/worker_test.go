package httpapi

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

// TestMain serves WorkerRole over runawayRegistry when an API of a test
// starts the test binary as its decode worker.
func TestMain(m *testing.M) {
	roles := map[string]childproc.Role{WorkerRole: func(arg string) error {
		return ServeWorker(arg, os.Stdin, os.Stdout, transport.Resolver{Codecs: runawayRegistry()})
	}}
	os.Exit(childproc.RunTests(m, roles))
}

// allocSink keeps what the "alloc" body of runawayRegistry allocates.
var allocSink [][]byte

// runawayRegistry has one codec, "runaway": encoding/json, except that
// the body "loop" decodes for ever and the body "alloc" allocates (and
// touches) memory for ever.
func runawayRegistry() *codec.Registry {
	reg, err := codec.NewRegistry(jsonWith("runaway", map[string]func(){
		"loop": func() {
			for n := 0; n >= 0; n++ {
			}
		},
		"alloc": func() {
			for {
				b := make([]byte, 1<<20)
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
				allocSink = append(allocSink, b)
			}
		},
	}))
	if err != nil {
		panic(err)
	}
	return reg
}

// jsonWith is a test codec id: encoding/json, except that a body that is a
// key of special runs its function first.
func jsonWith(id string, special map[string]func()) codec.Funcs {
	return codec.Funcs{
		Meta:    codec.Info{ID: id, Format: "JSON", Kind: codec.Reflect},
		Marshal: json.Marshal,
		Unmarshal: func(data []byte, v any) error {
			if f := special[string(data)]; f != nil {
				f()
			}
			return json.Unmarshal(data, v)
		},
	}
}

// A decode in a worker that never ends is stopped at DecodeTimeout, one
// that allocates without end at DecodeMemory: the worker is killed, each
// refusal names its limit, its flag and the client's use, this process's
// heap does not grow with the runaway's, and the next decode gets a new
// worker and succeeds.
func TestDecodeWorkers(t *testing.T) {
	a, srv := newServer(t, Options{
		Resolver:      transport.Resolver{Codecs: runawayRegistry(), Scenarios: scenario.Seeds()},
		DecodeCodecs:  []string{"runaway"},
		DecodeTimeout: 2 * time.Second,
		DecodeWorkers: 1,
		MaxDecodes:    1,
		DecodeMemory:  MinDecodeMemory + 32<<20,
	})
	t.Cleanup(a.Close)
	u := srv.URL + "/api/http/ws-message?codec=runaway"
	valid := encodeJSON(t, "ws-message")
	ok := func(when string) int {
		t.Helper()
		code, _, body := do(t, "POST", u, nil, valid)
		if code != 200 {
			t.Fatalf("%s: a valid body: %d %q, want 200", when, code, body)
		}
		w := <-a.lim.workers
		a.lim.workers <- w
		if w == nil {
			t.Fatalf("%s: no worker after a decode", when)
		}
		return w.cmd.Process.Pid
	}
	first := ok("first")
	if again := ok("again"); again != first {
		t.Fatalf("worker %d then %d: a worker that answered was not kept", first, again)
	}
	for _, tt := range []struct {
		body string
		code int
		want []string
	}{
		{"loop", 503, []string{"took more than 2s", "-api-decode-timeout", "client 127.0.0.1 has 1 decodes running", "its worker was stopped"}},
		{"alloc", 413, []string{"MiB resident in its worker", "-api-decode-memory", "client 127.0.0.1 has 1 decodes running"}},
	} {
		if tt.body == "alloc" && runtime.GOOS != "linux" {
			continue // the resident memory is watched through /proc
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code, _, body := do(t, "POST", u, nil, []byte(tt.body))
		runtime.GC()
		runtime.ReadMemStats(&after)
		// The runaway decode allocated in its worker, not here.
		if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 16<<20 {
			t.Errorf("%s: this process's heap grew by %d MiB", tt.body, grew>>20)
		}
		if code != tt.code {
			t.Fatalf("%s: %d %q, want %d", tt.body, code, body, tt.code)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(body), w) {
				t.Errorf("%s: %q does not say %q", tt.body, body, w)
			}
		}
		if w := <-a.lim.workers; w != nil {
			t.Fatalf("%s: worker %d kept after its decode was stopped", tt.body, w.cmd.Process.Pid)
		} else {
			a.lim.workers <- w
		}
		if next := ok("after " + tt.body); next == first {
			t.Fatalf("after %s: the same worker %d serves on", tt.body, next)
		}
	}
}

// encodeJSON is the seed value of scenario id in encoding/json.
func encodeJSON(t *testing.T, id string) []byte {
	t.Helper()
	ss, err := scenario.Select(scenario.Seeds(), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(ss[0].Value())
	if err != nil {
		t.Fatal(err)
	}
	return data
}
