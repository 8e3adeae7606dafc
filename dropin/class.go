// Package dropin holds the drop-in verdict of a codec: whether it can
// replace the reference codec of its format without its users noticing
// (Class, Verdict). Package dropin/measure measures it; this package imports
// nothing of serbench, so that the documents that carry a verdict (package
// report) do not link the probes.
package dropin

// Class is how far a codec can replace the reference codec of its format
// (Verdict.Class).
type Class string

// The drop-in classes, as Measure finds them.
const (
	// Yes: the same marshal bytes as the reference on every seed
	// scenario and the same outcome on every probe both could take.
	Yes Class = "drop-in"
	// SameBytes: the same marshal bytes on every seed scenario, but
	// a different outcome on some probe (Verdict.Probes).
	SameBytes Class = "same-bytes"
	// No: different marshal bytes on some seed scenario
	// (Verdict.Bytes).
	No Class = "no"
)

// Verdict is a codec's drop-in class against the reference codec of its
// format (encoding/json for JSON), as Measure finds it: marshal bytes
// compared on the seed scenarios, and decode behaviour compared on the
// fidelity probes of package probe, both codecs run on each. Documents
// carry it beside a codec's Info (the drop_in member of the run and list
// documents' codecs), never in it: it is measured, not stated.
type Verdict struct {
	// Of is the reference codec's ID: "encoding/json", "msgpack", "cbor".
	Of string `json:"of"`
	// Class is the verdict.
	Class Class `json:"class"`
	// Bytes lists the seed scenarios on which the codec's marshal bytes
	// differ from the reference's (or either could not marshal), each as
	// "SCENARIO: why".
	Bytes []string `json:"bytes,omitempty"`
	// Probes lists the probes with a different outcome, in catalog order.
	Probes []ProbeOutcome `json:"probes,omitempty"`
	// Compared is the number of probes both codecs could take; probes
	// one of them cannot be given (no schema for the probe's type and no
	// seed field to carry it) are left out.
	Compared int `json:"compared"`
	// NotCompared lists the IDs of those left-out probes.
	NotCompared []string `json:"not_compared,omitempty"`
}

// ProbeOutcome is one probe on which two codecs behave differently, each
// outcome in words: "kept", "changed (.S: want ... got ...)", "error in
// unmarshal", ...
type ProbeOutcome struct {
	Probe string `json:"probe"`
	Ref   string `json:"ref"`
	Got   string `json:"got"`
}
