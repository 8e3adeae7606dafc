package site_test

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/internal/browsertest"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/site"
	"github.com/serbench/serbench/verdict"
)

// TestBrowser opens a written site from file:// in headless Chromium and
// drives it: the filters, "safe only", the codec trend and the diff view.
func TestBrowser(t *testing.T) {
	runs := testRuns(t)
	ctx := openSite(t, runs)
	exec := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](js)); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
	}
	set := func(id, value string) {
		t.Helper()
		exec(`(function(){var e=document.getElementById("` + id + `"); e.value="` + value +
			`"; e.dispatchEvent(new Event("change")); return e.value})()`)
	}
	click := func(id string) { t.Helper(); exec(`document.getElementById("` + id + `").click()`) }
	rows := func(table string) []string {
		t.Helper()
		ids := evalJS[[]string](t, ctx, `Array.from(document.querySelectorAll("#`+table+` tbody tr[data-codec]")).map(function(r){return r.dataset.codec})`)
		slices.Sort(ids)
		return ids
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: rows %v, want %v", what, got, want)
		}
	}
	if env := evalJS[string](t, ctx, `document.getElementById("run-env").textContent`); !strings.Contains(env, "EMULATED") {
		t.Errorf("the latest run, emulated, is not marked: %q", env)
	}
	check("all codecs", rows("results"), []string{"broken", "fast", "lazy", "mp", "plain", "reuser"})
	// Safe only: fast imports unsafe but its decoded values were measured
	// not to alias the input, so it stays; lazy, a zero-copy view not
	// probed, counts as aliasing.
	click("safe")
	check("safe only", rows("results"), []string{"fast", "mp", "plain"})
	click("clear")
	set("f-format", "MessagePack")
	check("MessagePack", rows("results"), []string{"broken", "mp"})
	set("f-maintained", "yes")
	check("MessagePack, maintained", rows("results"), []string{"mp"})
	click("clear")
	set("f-dropin", "yes")
	check("drop-in for encoding/json", rows("results"), []string{"plain"})
	click("clear")
	set("f-api", "any")
	check("API any", rows("results"), []string{"fast"})
	click("clear")
	set("f-unsafe", "yes")
	check("unsafe", rows("results"), []string{"fast"})
	click("clear")
	set("f-aliases", "yes")
	check("aliases input", rows("results"), []string{"lazy"})
	click("clear")
	set("f-codegen", "yes")
	check("codegen", rows("results"), []string{"lazy", "mp"})
	click("clear")

	// The trend of mp: three runs, the library version change marked.
	exec(`document.querySelector('#results a.codec[data-codec-index="4"]').click()`)
	trend := evalJS[[]string](t, ctx, `Array.from(document.querySelectorAll("#trend tbody tr")).map(function(r){return r.cells[3].textContent})`)
	check("trend versions", trend, []string{"v1.0.0", "v1.1.0 (changed)", "v1.1.0"})
	marks := evalJS[int](t, ctx, `document.querySelectorAll("#trend-chart svg line[stroke-dasharray]").length`)
	if marks != 1 {
		t.Errorf("%d version marks on the chart, want 1", marks)
	}

	// The diff of run 0 with run 1 shows serbench compare's delta.
	click("tab-diff")
	set("diff-old", "0")
	set("diff-new", "1")
	cmp, err := compare.Compare(runs[0].Doc, runs[1].Doc, compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, r := range cmp.Rows {
		if r.Scenario == "sse-event" && r.Op == "marshal" {
			want[r.Codec] = r.Delta
		}
	}
	got := evalJS[map[string]string](t, ctx, `(function(){var o={}; document.querySelectorAll("#diff tbody tr[data-codec]").forEach(function(r){
		o[r.dataset.codec]=r.querySelector("td.delta").textContent}); return o})()`)
	if len(got) != len(want) || got["mp"] != want["mp"] || got["plain"] != want["plain"] || want["mp"] == "~" {
		t.Errorf("diff deltas %v, want %v (mp slowed by 20%%)", got, want)
	}
	// Reversed, the change of mp is a speed-up.
	set("diff-old", "1")
	set("diff-new", "0")
	reversed := evalJS[string](t, ctx, `document.querySelector('#diff tbody tr[data-codec="mp"] td.delta').className`)
	if reversed != "num better delta" {
		t.Errorf("reversed diff: mp's delta class %q, want a speed-up", reversed)
	}
	click("safe")
	check("diff, safe only", rows("diff"), []string{"fast", "mp", "plain"})
	click("clear")
	if basis := evalJS[string](t, ctx, `document.getElementById("diff-basis").textContent`); !strings.Contains(basis, cmp.Basis) {
		t.Errorf("diff basis %q does not say what compare compared by (%q)", basis, cmp.Basis)
	}
	// Runs 0 and 2 are not neighbours: compared in the page, untested.
	set("diff-old", "0")
	set("diff-new", "2")
	far := evalJS[string](t, ctx, `document.querySelector('#diff tbody tr[data-codec="mp"] td.delta').textContent`)
	if basis := evalJS[string](t, ctx, `document.getElementById("diff-basis").textContent`); !strings.HasPrefix(far, "+") || !strings.Contains(basis, "no significance test") {
		t.Errorf("runs 0 and 2: mp delta %q, basis %q; want a slow-down and the page saying it is untested", far, basis)
	}

	// The trend says which metric its chart shows and whether drift moves it.
	click("tab-codec")
	set("metric", "x")
	if basis := evalJS[string](t, ctx, `document.getElementById("trend-basis").textContent`); !strings.Contains(basis, "drift-proof") {
		t.Errorf("trend by speed-up: %q", basis)
	}
	set("metric", "ns")
	if basis := evalJS[string](t, ctx, `document.getElementById("trend-basis").textContent`); !strings.Contains(basis, "raw ns/op") {
		t.Errorf("trend by ns/op: %q", basis)
	}
}

// openSite builds and writes the site of runs, opens it from file:// in
// headless Chromium and waits until the page is ready. The context ends
// with the test, or after a minute.
func openSite(t *testing.T, runs []*archive.Run) context.Context {
	t.Helper()
	browser := browsertest.Find(t)
	d, err := site.Build(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, d); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, browser, "file://"+filepath.Join(dir, "index.html"))
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(cancel)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "true"`)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestBrowserVerdicts checks that the explorer's diff never states a
// verdict serbench compare would not (issue 41): for neighbouring runs,
// single-process and of three processes each, identical and slowed, both
// ways round, the verdict the page shows in every cell is that of
// serbench compare -max-regression 5% OLD NEW (report.CompareRuns by
// speed-up, report.ApplyGate); for runs that are not neighbours the page
// shows no verdict at all and names the serbench compare command that
// gives them.
func TestBrowserVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs func(testing.TB) []*archive.Run
		// slowed is the neighbouring pair in which mp slowed down by
		// slowdown: none of its cells of mp may read unchanged.
		slowed   [2]int
		slowdown float64
	}{
		{"one process, mp 20% slower then identical", func(t testing.TB) []*archive.Run { return testRunsOf(t, []float64{1, 1.2, 1.2}, 1) }, [2]int{0, 1}, 0.2},
		{"three processes, identical then mp 10% slower", func(t testing.TB) []*archive.Run { return testRunsOf(t, []float64{1, 1, 1.1}, 3) }, [2]int{1, 2}, 0.1},
		{"one process, per-pair speed-ups, identical code on a drifting machine", func(t testing.TB) []*archive.Run {
			return []*archive.Run{syntheticRun(t, 0), syntheticRun(t, 1), syntheticRun(t, 2)}
		}, [2]int{-1, -1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := tc.runs(t)
			ctx := openSite(t, runs)
			d, err := site.Build(context.Background(), runs)
			if err != nil {
				t.Fatal(err)
			}
			for _, pair := range [][2]int{{0, 1}, {1, 0}, {1, 2}, {2, 1}, {0, 2}, {2, 0}} {
				a, b := pair[0], pair[1]
				var want map[compare.Cell]string
				counts := map[string]int{}
				if b-a == 1 || a-b == 1 {
					want = goVerdicts(t, runs[a], runs[b])
				}
				// Every scenario and op of the pair, read in one evaluation:
				// got[s][o] maps codec ID to the verdict cell's text.
				got := evalJS[[][]map[string]string](t, ctx, `(function(){
					function set(id, v){var e=document.getElementById(id); e.value=String(v); e.dispatchEvent(new Event("change"))}
					document.getElementById("tab-diff").click();
					set("diff-old", `+strconv.Itoa(a)+`); set("diff-new", `+strconv.Itoa(b)+`);
					var out=[]; for (var s=0; s<`+strconv.Itoa(len(d.Scenarios))+`; s++) { out.push([]); for (var o=0; o<`+strconv.Itoa(len(d.Ops))+`; o++) {
						set("scenario", s); set("op", o);
						var v={}; document.querySelectorAll("#diff tbody tr[data-codec]").forEach(function(r){
							v[r.dataset.codec]=r.querySelector("td.verdict").textContent}); out[s].push(v) } }
					return out})()`)
				for s, sc := range d.Scenarios {
					for o, op := range d.Ops {
						if len(got[s][o]) != len(d.Codecs) {
							t.Errorf("runs %d -> %d, %s %s: %d rows, want %d", a, b, sc, op, len(got[s][o]), len(d.Codecs))
						}
						for c, v := range got[s][o] {
							if want == nil {
								if slices.Contains([]verdict.Verdict{verdict.Regressed, verdict.Unchanged, verdict.Inconclusive, verdict.Improved}, verdict.Verdict(v)) {
									t.Errorf("runs %d -> %d (not neighbours), %s %s %s: the page says %q, a verdict of its own", a, b, c, sc, op, v)
								}
								continue
							}
							w := want[compare.Cell{Codec: c, Scenario: sc, Op: op}]
							if v != w {
								t.Errorf("runs %d -> %d, %s %s %s: the page says %q, serbench compare %q", a, b, c, sc, op, v, w)
							}
							counts[w]++
							if pair == tc.slowed && c == "mp" && w == string(verdict.Unchanged) {
								t.Errorf("runs %d -> %d, mp %s %s: serbench compare says unchanged; mp slowed by %.0f%%", a, b, sc, op, 100*tc.slowdown)
							}
						}
					}
				}
				method := evalJS[string](t, ctx, `document.getElementById("diff-method").textContent`)
				cmd := "serbench compare -max-regression 5% ARCHIVE/" + runs[a].Key + ".json ARCHIVE/" + runs[b].Key + ".json"
				if !strings.Contains(method, cmd) {
					t.Errorf("runs %d -> %d: the method line %q does not name %q", a, b, method, cmd)
				}
				if want != nil {
					t.Logf("runs %d -> %d: serbench compare's verdicts %v", a, b, counts)
				}
			}
		})
	}
}

// goVerdicts returns the verdict of each cell of serbench compare
// -max-regression 5% a b (site.DiffThreshold), as its code gives it.
func goVerdicts(t *testing.T, a, b *archive.Run) map[compare.Cell]string {
	t.Helper()
	c, err := compare.CompareRuns([]*results.Run{a.Doc}, []*results.Run{b.Doc}, compare.CompareOptions{OldName: a.Key, NewName: b.Key, By: compare.BySpeedup})
	if err == nil {
		err = compare.ApplyGate([]*compare.Comparison{c}, site.DiffThreshold)
	}
	if err != nil {
		t.Fatal(err)
	}
	v := map[compare.Cell]string{}
	for _, r := range c.Rows {
		v[r.Cell] = string(r.Verdict)
	}
	return v
}

// evalJS evaluates js in the page and returns its value.
func evalJS[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// TestBrowserBadHash opens the explorer with hashes naming a run, metric
// or runs that do not exist (issue 44: each threw before the page was
// ready) and checks that it gets ready with the defaults instead.
func TestBrowserBadHash(t *testing.T) {
	browser := browsertest.Find(t)
	d, err := site.Build(context.Background(), testRuns(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, d); err != nil {
		t.Fatal(err)
	}
	for _, hash := range []string{"run=99", "metric=zzz", "view=diff&old=0&new=999", "view=nope&codec=-1&scenario=x"} {
		ctx := browsertest.Start(t, browser, "file://"+filepath.Join(dir, "index.html")+"#"+hash)
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "true"`)); err != nil {
			t.Errorf("#%s: the page never got ready: %v", hash, err)
		}
		cancel()
	}
}
