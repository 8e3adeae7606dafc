package load_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// A brief attack at a low rate on each framework: every request answered,
// figures filled in, the histogram decodes to the same count.
func TestRunHTTP(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	for _, fw := range []string{"gin", "echo", "nethttp"} {
		for _, method := range []string{"GET", "POST"} {
			t.Run(fw+"/"+method, func(t *testing.T) {
				rs, err := load.RunHTTP(context.Background(), load.HTTPOptions{
					URL: base, Framework: fw, Method: method, Codecs: []string{"jsoniter", "protobuf"}, Registry: all.Registry(),
					Rate: 100, Duration: 200 * time.Millisecond, Conns: 4, CPUScope: "process",
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(rs) != 2 {
					t.Fatalf("%d results, want 2", len(rs))
				}
				for _, r := range rs {
					if r.Requests == 0 || r.OK != r.Requests || r.Errors != 0 || r.Error != "" {
						t.Errorf("%s: requests %d, ok %d, errors %d (%s)", r.Codec, r.Requests, r.OK, r.Errors, r.Error)
					}
					if r.ServerRequests < r.OK || r.BytesPerResponse <= 0 || r.P99Ms <= 0 || r.ServerHeapBytesPerReq <= 0 {
						t.Errorf("%s: figures missing: %+v", r.Codec, r)
					}
					if (method == "POST") != (r.BytesPerRequest > 0) {
						t.Errorf("%s %s: %g bytes per request", method, r.Codec, r.BytesPerRequest)
					}
					h, err := hdrhistogram.Decode([]byte(r.Histogram))
					if err != nil {
						t.Fatalf("%s: histogram: %v", r.Codec, err)
					}
					if uint64(h.TotalCount()) != r.OK {
						t.Errorf("%s: histogram holds %d values, want %d", r.Codec, h.TotalCount(), r.OK)
					}
				}
				if rs[0].BytesPerResponse <= rs[1].BytesPerResponse {
					t.Errorf("JSON response %g bytes, protobuf %g: want JSON larger", rs[0].BytesPerResponse, rs[1].BytesPerResponse)
				}
			})
		}
	}
}

func TestHTTPOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		o    load.HTTPOptions
		want string
	}{
		{load.HTTPOptions{Registry: all.Registry(), URL: "http://127.0.0.1:1", Framework: "fiber"}, `"fiber"`},
		{load.HTTPOptions{Registry: all.Registry(), URL: "http://127.0.0.1:1", Method: "PUT"}, `"PUT"`},
		{load.HTTPOptions{Registry: all.Registry(), URL: "http://127.0.0.1:1", Rate: -1}, "-1"},
		{load.HTTPOptions{Registry: all.Registry(), URL: "http://127.0.0.1:1", Codecs: []string{"memmove"}}, "memmove"},
		{load.HTTPOptions{Registry: all.Registry(), URL: "http://10.0.0.1:1"}, "10.0.0.1"},
	} {
		if _, err := tc.o.Effective(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %s", tc.o, err, tc.want)
		}
	}
}

// fakeServer passes every rate up to capacity (p99 1ms) and fails above
// it (p99 grows with the overload).
func fakeServer(capacity float64, calls *[]float64) load.Measure {
	return func(_ context.Context, rate float64) (load.MaxStep, load.HTTPResult, error) {
		*calls = append(*calls, rate)
		st := load.MaxStep{P99Ms: 1, RequestsPerS: rate}
		if rate > capacity {
			st.P99Ms = 20 + 100*(rate-capacity)/capacity
		}
		return st, load.HTTPResult{Rate: rate}, nil
	}
}

func TestMaxSearch(t *testing.T) {
	for _, tc := range []struct {
		capacity, start float64
		wantLo, wantHi  float64 // best must be within [wantLo, wantHi]
	}{
		{capacity: 1000, start: 100, wantLo: 900, wantHi: 1000},
		{capacity: 1000, start: 5000, wantLo: 900, wantHi: 1000},
		{capacity: 100, start: 100, wantLo: 100, wantHi: 100},
		{capacity: 0.5, start: 100, wantLo: 0, wantHi: 0},
	} {
		t.Run(fmt.Sprint(tc.capacity, "/", tc.start), func(t *testing.T) {
			var calls []float64
			s := load.MaxSearch{SLO: 15 * time.Millisecond, Start: tc.start}
			best, r, steps, err := s.Run(context.Background(), fakeServer(tc.capacity, &calls))
			if err != nil {
				t.Fatal(err)
			}
			if best < tc.wantLo || best > tc.wantHi {
				t.Errorf("best %g, want in [%g, %g]; steps %v", best, tc.wantLo, tc.wantHi, calls)
			}
			if best > 0 && r.Rate != best {
				t.Errorf("best result has rate %g, want %g", r.Rate, best)
			}
			if len(steps) != len(calls) || len(steps) > 16 {
				t.Errorf("%d steps for %d calls", len(steps), len(calls))
			}
			for _, st := range steps {
				if st.Pass != (st.Rate <= tc.capacity) || (st.Why == "") == !st.Pass {
					t.Errorf("step %+v: pass/why wrong for capacity %g", st, tc.capacity)
				}
			}
		})
	}
}

func TestMaxSearchJudge(t *testing.T) {
	s := load.MaxSearch{SLO: 15 * time.Millisecond, MaxSteps: 1}
	for _, tc := range []struct {
		st  load.MaxStep
		why string
	}{
		{load.MaxStep{P99Ms: 20, RequestsPerS: 100}, "p99 20ms > 15ms"},
		{load.MaxStep{P99Ms: 1, Errors: 3, RequestsPerS: 100}, "3 errors"},
		{load.MaxStep{P99Ms: 1, RequestsPerS: 50}, "answered 50/s of 100/s"},
		{load.MaxStep{P99Ms: 15, RequestsPerS: 96}, ""},
	} {
		_, _, steps, err := s.Run(context.Background(), func(context.Context, float64) (load.MaxStep, load.HTTPResult, error) {
			return tc.st, load.HTTPResult{}, nil
		})
		if err != nil || len(steps) != 1 || steps[0].Why != tc.why || steps[0].Pass != (tc.why == "") {
			t.Errorf("%+v: steps %+v, err %v; want why %q", tc.st, steps, err, tc.why)
		}
	}
	boom := errors.New("boom")
	_, _, _, err := s.Run(context.Background(), func(context.Context, float64) (load.MaxStep, load.HTTPResult, error) {
		return load.MaxStep{}, load.HTTPResult{}, boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("measure error: got %v", err)
	}
	if _, _, _, err := (load.MaxSearch{}).Run(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "SLO") {
		t.Errorf("zero SLO: got %v", err)
	}
}

// Issue 44: -rate 1e-10 -duration 1s ran for 10 minutes (vegeta sleeps
// until the next hit, 1,000 s ahead, before it looks at the duration) and
// ignored SIGTERM. A phase now ends at its duration with no request sent,
// and a cancelled one returns with the context's error while the
// attacker still sleeps. Both are deadlock guards, not time limits: the
// waits they guard were 1,000 s.
func TestRunHTTPEnds(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	o := load.HTTPOptions{URL: base, Framework: "http", Method: "GET", Codecs: []string{"jsoniter"}, Registry: all.Registry(),
		Rate: 1e-10, Duration: 100 * time.Millisecond, Conns: 1, CPUScope: "process"}
	done := make(chan error, 1)
	go func() {
		rs, err := load.RunHTTP(context.Background(), o)
		if err == nil && rs[0].Requests != 0 {
			err = fmt.Errorf("%d requests at 1e-10 requests/s in 100ms", rs[0].Requests)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(100 * time.Second):
		t.Fatal("a 100ms phase at 1e-10 requests/s still running after 100s")
	}
	o.Duration = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, err := load.RunHTTP(ctx, o); done <- err }()
	time.Sleep(50 * time.Millisecond) // not needed for the result: cancelling at any point must end the run
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled run: %v, want context.Canceled", err)
		}
	case <-time.After(100 * time.Second):
		t.Fatal("a cancelled phase still running after 100s")
	}
}
