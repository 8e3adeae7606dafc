package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/runtest"
	"github.com/serbench/serbench/results"
)

func TestSweepReport(t *testing.T) {
	doc := runtest.Sweep()
	doc = results.Analyze(doc) // the writers show the plateaus Analyze finds
	var tab, html bytes.Buffer
	if err := Table(&tab, doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"size sweep (user-event): MB/s by encoding/json size", "1KiB=1031, 16KiB=16391, 1MiB=1048583",
		"from 16KiB", "none (still rising)", "none (falls after 16KiB)", "Throughput plateau: the smallest sweep size"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
	if err := HTML(&html, doc, nil); err != nil {
		t.Fatal(err)
	}
	page := html.String()
	i := strings.Index(page, `<section id="sweep">`)
	if i < 0 {
		t.Fatal("page has no sweep section")
	}
	sec := page[i : i+strings.Index(page[i:], "</section>")]
	if n := strings.Count(sec, "<svg"); n != 2 {
		t.Errorf("sweep section has %d charts, want 2", n)
	}
	for _, want := range []string{"encoding/json marshal: cost per byte stops falling at 16KiB", "fast unmarshal", "16KiB", "1MiB"} {
		if !strings.Contains(sec, want) {
			t.Errorf("sweep section lacks %q", want)
		}
	}
	for _, bad := range []string{"http:", "https:", "<?xml"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func TestLogTicks125(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks125{}).Ticks(40, 2500) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "50 100 200 500 1k 2k" {
		t.Errorf("labels %q", got)
	}
	if got := shortNumber(1e7); got != "10M" {
		t.Errorf("shortNumber(1e7) = %q", got)
	}
}
