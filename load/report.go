package load

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/regfile"
)

// Schema names the JSON document `serbench load -format json` writes
// (docs/reference.md, "JSON documents"; docs/schema/load.schema.json).
const Schema = document.Load

// LegacySchema is what load documents said before they had a name of their
// own: the same fields under the run document's name. ReadReport reads both.
const LegacySchema = document.LegacyLoad

// ReadReport reads a JSON document written by WriteJSON (serbench load
// -format json), under Schema or LegacySchema; name labels errors. It fails
// on another schema, on a document without a transport array, and on input
// over 64 MiB.
func ReadReport(r io.Reader, name string) (Report, error) {
	var rep Report
	data, err := io.ReadAll(io.LimitReader(r, 64<<20+1))
	if err != nil {
		return rep, fmt.Errorf("load: %s: %w", name, err)
	}
	if len(data) > 64<<20 {
		return rep, fmt.Errorf("load: %s: larger than 64 MiB", name)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return rep, fmt.Errorf("load: %s: not serbench JSON: %w", name, err)
	}
	if rep.Schema != Schema && rep.Schema != LegacySchema {
		return rep, fmt.Errorf("load: %s: schema %q, want %q", name, rep.Schema, Schema)
	}
	if len(rep.Transport) == 0 && len(rep.HTTP) == 0 {
		return rep, fmt.Errorf("load: %s: no transport or http results", name)
	}
	return rep, nil
}

// ReadReportFile reads the load report at path (ReadReport). A path that
// is not a regular file (a FIFO, a device, a folder) is an error wrapping
// regfile.ErrNotRegular, returned before reading.
func ReadReportFile(path string) (Report, error) {
	f, err := regfile.Open(path, true)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	return ReadReport(f, path)
}

// Report is the JSON document `serbench load -format json` writes.
type Report struct {
	Schema    string   `json:"schema"`
	Env       env.Env  `json:"env"`
	Transport []Result `json:"transport"`
	// HTTP holds the results of -transport http (RunHTTP); Transport is
	// then empty.
	HTTP []HTTPResult `json:"http,omitempty"`
	// Finished is when the run ended, for serbench merge's clock check.
	Finished *time.Time `json:"finished,omitempty"`
	// Host is the name of the machine the load ran on (os.Hostname).
	Host string `json:"host,omitempty"`
}

// formats are the formats of a load report.
var formats = document.Formats[Report]{Package: "load", List: []document.Format[Report]{
	{Name: "table", Write: WriteTable},
	{Name: "json", Write: WriteJSON},
}}

// Formats lists the names Write accepts.
var Formats = formats.Names()

// Write writes r in format, one of Formats; an unknown format is a
// *document.UnknownFormatError.
func Write(w io.Writer, format string, r Report) error { return formats.Write(w, format, r) }

// WriteJSON writes r as indented JSON.
func WriteJSON(w io.Writer, r Report) error {
	return document.WriteJSON(w, "load", "  ", r)
}

// WriteTable writes the results as aligned text: a line on the machine,
// then one row per result for
// delivery and latency, then one per result for bytes and server cost.
// Text from the report (names, errors, the environment) is escaped with
// document.TerminalText: a report is a file anyone may hand over.
func WriteTable(w io.Writer, r Report) error {
	return document.WriteTerminal(w, func(w io.Writer) error { return writeTable(w, r) })
}

// writeTable is WriteTable before the terminal escaping.
func writeTable(w io.Writer, r Report) error {
	line := "serbench load: " + r.Env.Summary()
	if r.Env.LoadAvg != "" {
		line += ", load average " + r.Env.LoadAvg
	}
	if _, err := fmt.Fprintln(w, cell(line)); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	if len(r.HTTP) > 0 {
		return writeHTTPTable(w, r.HTTP)
	}
	return writeTransportTable(w, r.Transport)
}

// writeTransportTable writes the SSE/WebSocket results of WriteTable.
func writeTransportTable(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "transport\tcodec\tscenario\tconns\trate/conn\tsent\treceived\tlost\tdup\tdecode err\terrors\treconn\tmsgs/s\tp50 ms\tp90 ms\tp99 ms\tp99.9 ms\tmax ms\t\n")
	for _, x := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%g\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n",
			cell(x.Transport), cell(x.Codec), cell(x.Scenario), x.Conns, x.Rate, x.Sent, x.Received, x.Lost, x.Duplicates,
			x.DecodeErrors, x.Errors, x.Reconnects, x.MsgsPerS, x.P50Ms, x.P90Ms, x.P99Ms, x.P999Ms, x.MaxMs)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "transport\tcodec\twire B/msg\tpayload\tframing\tbase64\tcpu s\tcpu scope\tpeak RSS MiB\tlag p50 ms\tlag p99 ms\tlag max ms\toverflows\tdropped\treplay miss\t\n")
	for _, x := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t%.1f\t%.3f\t%.3f\t%.3f\t%d\t%d\t%d\t\n",
			cell(x.Transport), cell(x.Codec), x.WireBytesPerMsg, x.PayloadBytesPerMsg, x.FramingBytesPerMsg, x.Base64BytesPerMsg,
			x.ServerCPUSeconds, cell(x.CPUScope), float64(x.PeakRSSBytes)/(1<<20), x.PublisherLagP50Ms, x.PublisherLagP99Ms, x.PublisherLagMaxMs,
			x.Overflows, x.Dropped, x.ReplayMisses)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("load: write table: %w", err)
	}
	for _, x := range rs {
		if x.Fanout > 1 {
			if _, err := fmt.Fprintf(w, "fan-out %s/%s: %d connections on each of %d streams; %d published, %d delivered; lost on %d connections, out of order on %d\n",
				cell(x.Transport), cell(x.Codec), x.Fanout, x.Streams, x.Sent, x.Delivered, x.LossyConns, x.DisorderedConns); err != nil {
				return fmt.Errorf("load: write table: %w", err)
			}
		}
	}
	for _, x := range rs {
		if x.Compression != "" {
			if _, err := fmt.Fprintf(w, "compressed %s/%s: %s (wire B/msg are compressed bytes)\n", cell(x.Transport), cell(x.Codec), cell(x.Compression)); err != nil {
				return fmt.Errorf("load: write table: %w", err)
			}
		}
	}
	if err := writeSwitchTable(w, rs); err != nil {
		return err
	}
	for _, x := range rs {
		if x.Error != "" {
			if _, err := fmt.Fprintf(w, "first error %s/%s: %s\n", cell(x.Transport), cell(x.Codec), cell(x.Error)); err != nil {
				return fmt.Errorf("load: write table: %w", err)
			}
		}
	}
	return nil
}

// cell is s as one cell of a tabwriter table or one field of a line:
// document.TerminalText, so a tab or newline in a name from the report
// cannot open a column or a line.
func cell(s string) string { return document.TerminalText(s) }
