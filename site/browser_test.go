package site_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/internal/browsertest"
	"github.com/serbench/serbench/site"
)

// TestBrowser opens a written site from file:// in headless Chromium and
// drives it: the filters, "safe only", the codec trend and the diff view.
func TestBrowser(t *testing.T) {
	browser := browsertest.Find(t)
	runs := testRuns(t)
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
	defer cancel()
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
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "true"`)); err != nil {
		t.Fatal(err)
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
