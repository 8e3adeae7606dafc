package flatbuffers

import (
	"errors"
	"fmt"
)

// The expansion bound. A FlatBuffer refers to its vectors, tables and
// strings by offset, and nothing in the format stops two offsets from
// naming the same object: a vector of 20,000 offsets to one table whose
// own vector holds 20,000 offsets to one string is 160 KB on the wire and
// 4x10^8 objects once read (a DAG, or "shared-offset" buffer). The Go
// runtime has no verifier, so both codecs walk the buffer first (the
// lazy codec's in-place read is that walk), charging what each object
// would occupy in an unshared buffer, and stop with an *ExpansionError
// once the charges pass MaxExpansion times the input size plus
// ExpansionSlack.
//
// The charges, in bytes: a table or string in a vector 8 (its offset in
// the vector and its own 4-byte head), a scalar or struct in a vector its
// size, a string's bytes plus 4 when present. A buffer in which every
// object is written once (what flatc's builders write unless asked to
// share strings) is never charged more than its own size.

// MaxExpansion is the most a decode may charge per input byte; see
// ExpansionError. A buffer that shares its strings or tables more than
// this many times over is refused.
const MaxExpansion = 4

// ExpansionSlack is added to MaxExpansion times the input size, so that
// tiny buffers whose absent fields read as present are not refused.
const ExpansionSlack = 4096

// ErrExpansion is the sentinel every *ExpansionError wraps (errors.Is).
var ErrExpansion = errors.New("expansion limit exceeded")

// ExpansionError is the error of a decode that the expansion bound
// stopped: reading the buffer would have touched more than Limit bytes of
// vectors, tables and strings, which only a buffer with shared offsets (a
// DAG) or a vector claiming more elements than the buffer holds can make
// it do.
type ExpansionError struct {
	Codec      string // the codec's ID
	InputBytes int    // the size of the input
	Limit      int64  // MaxExpansion*InputBytes + ExpansionSlack
	Charged    int64  // what the walk had charged when it stopped, > Limit
}

// Error implements error.
func (e *ExpansionError) Error() string {
	return fmt.Sprintf("%s: %v: a %d-byte buffer reads as more than %d bytes of vectors, tables and strings (%d charged; the bound is MaxExpansion %d x input + %d): shared offsets or a vector longer than the buffer",
		e.Codec, ErrExpansion, e.InputBytes, e.Limit, e.Charged, MaxExpansion, ExpansionSlack)
}

// Unwrap returns ErrExpansion.
func (e *ExpansionError) Unwrap() error { return ErrExpansion }

// budget counts the charges of one walk. Its methods panic with an
// *ExpansionError past the limit; Unmarshal recovers it as its error.
type budget struct {
	id      string
	input   int
	limit   int64
	charged int64
}

// reset starts the count of a walk over an input of input bytes.
func (g *budget) reset(id string, input int) {
	*g = budget{id: id, input: input, limit: MaxExpansion*int64(input) + ExpansionSlack}
}

func (g *budget) charge(n int64) {
	g.charged += n
	if g.charged > g.limit {
		panic(&ExpansionError{Codec: g.id, InputBytes: g.input, Limit: g.limit, Charged: g.charged})
	}
}

// vec charges a vector of n elements of size bytes each (8 for tables and
// strings) and returns n, so that a loop can range over it.
func (g *budget) vec(n, size int) int {
	g.charge(int64(n) * int64(size))
	return n
}

// str charges a string's bytes and its length head, and returns its length.
func (g *budget) str(b []byte) uint64 {
	if b != nil {
		g.charge(int64(len(b)) + 4)
	}
	return uint64(len(b))
}
