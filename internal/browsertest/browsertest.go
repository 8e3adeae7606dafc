// Package browsertest finds and starts the headless Chromium that browser
// tests drive with chromedp, with one skip rule for every such test.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Browsers are the executables Find looks for, Debian's first.
var Browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// Find returns a Chromium-family browser on PATH. Without one the test is
// skipped, unless the CI environment variable is set (CI installs Debian's
// chromium with scripts/install-browser.sh): then it fails.
func Find(tb testing.TB) string {
	tb.Helper()
	for _, name := range Browsers {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("no browser on PATH (looked for %s); CI installs one with scripts/install-browser.sh", strings.Join(Browsers, ", "))
	}
	tb.Skipf("no browser on PATH (looked for %s)", strings.Join(Browsers, ", "))
	return ""
}

// Start starts browser headless and returns a chromedp context on a new
// tab, opened at url; the browser stops when the test ends. The first
// action, the navigation, runs without a deadline, which would stop the
// browser (chromedp.Run's doc).
func Start(tb testing.TB, browser, url string) context.Context {
	tb.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.NoSandbox, // tests may run as root, where Chromium's sandbox refuses to start
		chromedp.Flag("disable-background-timer-throttling", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tb.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	tb.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		tb.Fatalf("chromium: %v", err)
	}
	return ctx
}
