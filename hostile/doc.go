// Package hostile feeds decoders malformed input and reports what a hostile
// peer can do to each: make it panic, hang, overflow its stack or allocate
// far more memory than the message it sent.
//
// Generate makes the inputs from a scenario's valid encoding: every
// truncation, seeded bit flips, length heads that claim 2^32 or 2^63
// elements, and a million nested arrays for JSON, CBOR and MessagePack.
//
// Guard.Run decodes them in a child process (this program run again in
// ChildRole by internal/childproc; it must serve the role with ServeChild)
// under a memory limit (debug.SetMemoryLimit and, on Linux, RLIMIT_DATA), a stack limit
// (debug.SetMaxStack) and a per-input time limit enforced by the parent, so
// that what would kill a Go program (a stack overflow, running out of
// memory, a hang, a panic in another goroutine) ends the child and becomes
// a Result, and the next input goes to a new child. In the child each
// decode's heap allocation is measured with runtime.ReadMemStats around the
// call. Summarize counts a target's Results into a Row, and Write renders
// Rows as a table, Markdown, CSV or JSON (schema "serbench-hostile/v1").
//
// Run does it all for a list of codecs and scenarios (what `serbench
// hostile` runs): it encodes each scenario validly with each codec, makes
// the inputs, runs them under Guard and returns the Document. Its child
// must serve Targets over the same codecs and scenarios.
//
// The package links no codec: the program takes the codecs (and, for the
// child, a codec.Registry that Targets looks them up in).
package hostile
