package load

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// latencyMs returns h's p50, p90, p99, p99.9 and maximum, h holding
// microseconds, in milliseconds.
func latencyMs(h *hdrhistogram.Histogram) (p50, p90, p99, p999, maxMs float64) {
	return ms(h.ValueAtQuantile(50)), ms(h.ValueAtQuantile(90)), ms(h.ValueAtQuantile(99)), ms(h.ValueAtQuantile(99.9)), ms(h.Max())
}

// ms converts microseconds to milliseconds.
func ms(us int64) float64 { return float64(us) / 1e3 }

// encodeHistogram returns h in HdrHistogram's compressed base64 form
// (V2CompressedEncodingCookieBase), or "" if encoding fails.
func encodeHistogram(h *hdrhistogram.Histogram) string {
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return ""
	}
	return string(enc)
}

// DecodeHistogram decodes a Histogram field (Result or HTTPResult).
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("load: decode histogram: %w", err)
	}
	return h, nil
}

// writeHTTPTable writes HTTP results: latency and throughput, then bytes
// and server cost per request, then the steps of any -max search.
func writeHTTPTable(w io.Writer, rs []HTTPResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "framework\tcodec\tscenario\tmethod\tconns\trate/s\trequests\tok\terrors\treq/s\tp50 ms\tp90 ms\tp99 ms\tp99.9 ms\tmax ms\t\n")
	for _, x := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%.0f\t%d\t%d\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n",
			cell(x.Framework), cell(x.Codec), cell(x.Scenario), cell(x.Method), x.Conns, x.Rate, x.Requests, x.OK, x.Errors, x.RequestsPerS,
			x.P50Ms, x.P90Ms, x.P99Ms, x.P999Ms, x.MaxMs)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "framework\tcodec\tresp B\treq B\tserver reqs\tcpu µs/req\theap B/req\tallocs/req\tcpu scope\t\n")
	for _, x := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.0f\t%d\t%.1f\t%.0f\t%.1f\t%s\t\n",
			cell(x.Framework), cell(x.Codec), x.BytesPerResponse, x.BytesPerRequest, x.ServerRequests,
			x.ServerCPUUsPerReq, x.ServerHeapBytesPerReq, x.ServerAllocsPerReq, cell(x.CPUScope))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	for _, x := range rs {
		if x.MaxRate != nil {
			steps := make([]string, len(x.Steps))
			for i, s := range x.Steps {
				verdict := "pass"
				if !s.Pass {
					verdict = s.Why
				}
				steps[i] = fmt.Sprintf("%.0f/s (%s)", s.Rate, verdict)
			}
			if _, err := fmt.Fprintf(w, "max %s/%s: %.0f requests/s with p99 <= %gms; steps: %s\n",
				cell(x.Framework), cell(x.Codec), *x.MaxRate, x.SLOMs, strings.Join(steps, ", ")); err != nil {
				return fmt.Errorf("load: write table: %w", err)
			}
		}
		if x.Error != "" {
			if _, err := fmt.Fprintf(w, "first error %s/%s: %s\n", cell(x.Framework), cell(x.Codec), cell(x.Error)); err != nil {
				return fmt.Errorf("load: write table: %w", err)
			}
		}
	}
	return nil
}
