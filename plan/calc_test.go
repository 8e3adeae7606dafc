package plan

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The calculator's JavaScript (calc.js) gives the rows Compute gives, in
// the same order, on the inputs of the hand-computed tests with budgets,
// base64 and a bandwidth. It runs with node; without node on PATH the test
// is skipped.
func TestCalcJSMatchesCompute(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH")
	}
	x := in
	x.Transport.Base64, x.Transport.P99Ms, x.BandwidthBps, x.EgressBudgetBps, x.P99BudgetMs = true, 0.5, 2e6, 1e6, 0.6
	x.Transport.RecvNsPerMsg, x.Transport.RecvNsPerByte, x.Transport.RecvNsPerAllocByte = 3000, 0.7, 2
	bin := optB
	bin.Binary, bin.EncodedBytes, bin.RecvAllocBytes = true, 400, 96 // compressed from 400 bytes to 40
	bad := Option{Codec: "c", Compressor: None, Error: "n/a"}
	t.Run("budgets", func(t *testing.T) { checkCalcJS(t, node, x, []Option{optA, bin, bad}) })
	// No prices: every option costs 0, and the order comes from cores, then
	// bytes (TestComputeTieBreak).
	free := in
	free.CPUPrice, free.EgressPrice = 0, 0
	t.Run("no prices", func(t *testing.T) { checkCalcJS(t, node, free, []Option{optA, optFast, optB}) })
	// An option that carries some of the framing (sse-gzip) and one that
	// carries more than the transport's.
	framed, over := optB, optA
	framed.Codec, framed.Compressor, framed.FramingBytes = "framed", SSEGzip, 5
	over.Codec, over.FramingBytes = "over", 20
	t.Run("framing carried", func(t *testing.T) { checkCalcJS(t, node, in, []Option{framed, over}) })
}

// checkCalcJS runs calc.js's planCompute in node on x and opts and checks
// that its rows, in order, match Compute's.
func checkCalcJS(t *testing.T, node string, x Inputs, opts []Option) {
	want, err := Compute(x, opts)
	if err != nil {
		t.Fatal(err)
	}
	args, err := json.Marshal([]any{x, opts})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "run.js")
	abs, err := filepath.Abs("calc.js")
	if err != nil {
		t.Fatal(err)
	}
	src := "const planCompute = require(" + string(mustJSON(t, abs)) + ");\nconst a = " + string(args) +
		";\nprocess.stdout.write(JSON.stringify(planCompute(a[0], a[1])));\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(node, script)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v: %s", err, stderr.String())
	}
	var got []struct {
		Codec, Compressor, Error, Binds string
		SendCores                       float64  `json:"send_cores"`
		RecvCores                       float64  `json:"recv_cores"`
		Cost                            float64  `json:"cost"`
		EgressBps                       float64  `json:"egress_bps"`
		Distance                        float64  `json:"distance"`
		MaxRate                         float64  `json:"max_rate"`
		P99                             *float64 `json:"p99_ms"`
		Meets                           bool
		Misses                          []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got) != len(want.Rows) {
		t.Fatalf("%d rows from JS, %d from Go", len(got), len(want.Rows))
	}
	for i, w := range want.Rows {
		g := got[i]
		if g.Codec != w.Codec || g.Error != w.Error || g.Meets != w.Meets || strings.Join(g.Misses, ";") != strings.Join(w.Misses, ";") || g.Binds != w.Binds {
			t.Errorf("row %d: JS %+v, Go %+v", i, g, w)
			continue
		}
		if w.Error != "" {
			continue
		}
		for _, f := range []struct {
			name     string
			js, goes float64
		}{{"send cores", g.SendCores, w.SendCores.Mid}, {"recv cores", g.RecvCores, w.RecvCores.Mid}, {"cost", g.Cost, w.Cost},
			{"egress", g.EgressBps, w.EgressBps}, {"distance", g.Distance, w.Distance}, {"max rate", g.MaxRate, w.MaxRate}, {"p99", *g.P99, w.P99Ms}} {
			if math.Abs(f.js-f.goes) > 1e-9*math.Max(1, math.Abs(f.goes)) {
				t.Errorf("row %d %s: JS %g, Go %g", i, f.name, f.js, f.goes)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
