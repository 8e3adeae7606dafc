package childproc

import "strings"

// Cause is how a child died.
type Cause string

// The causes Classify tells apart.
const (
	StackOverflow Cause = "stack-overflow" // a goroutine exceeded the stack limit (fatal in Go)
	OutOfMemory   Cause = "out-of-memory"  // the runtime could not get memory (under the rlimit)
	Crashed       Cause = "crash"          // any other death: a panic, a signal, an exit
)

// Death is why a child died.
type Death struct {
	Cause Cause
	// Message is the line of the child's standard error that says why,
	// with detail in parentheses: "fatal error: stack overflow (runtime:
	// goroutine stack exceeds 67108864-byte limit)", "panic: boom (exit
	// status 2)"; the exit status alone when the child printed nothing.
	// At most MaxMessage bytes.
	Message string
}

// MaxMessage caps Death.Message and what Line keeps, in bytes.
const MaxMessage = 200

// Classify says why a child died from the start of its standard error
// (a Head's String) and the error cmd.Wait returned (nil if it exited 0
// before finishing its work).
func Classify(stderr string, waitErr error) Death {
	lines := strings.Split(stderr, "\n")
	find := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	exceeds := find("runtime: goroutine stack exceeds")
	fatal := find("fatal error:")
	d := Death{Cause: Crashed}
	switch {
	case exceeds != "" || strings.Contains(fatal, "stack overflow"):
		d.Cause = StackOverflow
	case strings.Contains(fatal, "out of memory") || strings.Contains(stderr, "cannot allocate memory"):
		d.Cause = OutOfMemory
	}
	detail := ""
	if waitErr != nil {
		detail = waitErr.Error()
	}
	why := fatal
	switch {
	case fatal != "" && exceeds != "":
		detail = exceeds
	case fatal != "":
		detail = ""
	default:
		if why = find("panic: "); why == "" {
			why = strings.TrimSpace(lines[0])
		}
	}
	switch {
	case why != "" && detail != "":
		d.Message = Line(why + " (" + detail + ")")
	case why != "":
		d.Message = Line(why)
	case detail != "":
		d.Message = Line(detail)
	default:
		d.Message = "exited before finishing its work"
	}
	return d
}

// Line returns the first line of s, cut to MaxMessage bytes with "…"
// marking a cut.
func Line(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > MaxMessage {
		s = s[:MaxMessage] + "…"
	}
	return s
}
