package hostile

import (
	"fmt"
	"time"
)

// The allocation-bomb thresholds: an input is a bomb when its decode
// allocates more than BombRatio times its size, counted as at least
// BombMinSize bytes (so that a decoder's fixed cost, such as allocating the
// result value, is not a bomb on a 3-byte input), or more than BombBytes.
const (
	BombRatio   = 1000
	BombMinSize = 64
	BombBytes   = 64 << 20
)

// IsBomb reports whether allocating alloc bytes to decode size input bytes
// is an allocation bomb.
func IsBomb(alloc int64, size int) bool {
	return alloc > BombBytes || alloc > BombRatio*int64(max(size, BombMinSize))
}

// Row summarises one target's Results.
type Row struct {
	Codec    string `json:"codec"`
	Scenario string `json:"scenario"`
	// Error is set when the row could not run (no valid encoding, say);
	// the counts are then zero.
	Error string `json:"error,omitempty"`

	Inputs   int `json:"inputs"`
	Rejected int `json:"rejected"`
	Accepted int `json:"accepted"`
	Panics   int `json:"panics"`
	// Killed counts inputs that ended the child: timeouts, stack
	// overflows, out of memory and other crashes.
	Killed  int `json:"killed"`
	Skipped int `json:"skipped,omitempty"`
	// Bombs counts inputs whose decode allocated past the bomb thresholds
	// (IsBomb), out of memory included.
	Bombs int `json:"bombs"`

	// WorstAllocPerByte is the largest bytes allocated per input byte (an
	// empty input counting as one byte), WorstAllocInput the input, and
	// WorstAlloc its bytes allocated.
	WorstAllocPerByte float64 `json:"worst_alloc_per_byte"`
	WorstAllocInput   string  `json:"worst_alloc_input,omitempty"`
	WorstAlloc        int64   `json:"worst_alloc_bytes"`
	// WorstTime is the longest decode of an input that the child survived,
	// WorstTimeInput the input.
	WorstTime      time.Duration `json:"worst_time_ns"`
	WorstTimeInput string        `json:"worst_time_input,omitempty"`

	// Findings lists the panics, kills and bombs, one per kind and origin.
	Findings []Finding `json:"findings,omitempty"`
}

// Finding is one kind of failure of a target: the first input that showed
// it and how many did.
type Finding struct {
	Outcome Outcome `json:"outcome"` // panic, a kill, or "alloc-bomb"
	Input   string  `json:"input"`
	Size    int     `json:"size"`
	Count   int     `json:"count"`
	Message string  `json:"message"`
	Origin  string  `json:"origin,omitempty"`
}

// AllocBomb is the Finding.Outcome of an allocation bomb that the child
// survived.
const AllocBomb Outcome = "alloc-bomb"

// Summarize counts results into a Row for codec and scenario.
func Summarize(codec, scenario string, results []Result) Row {
	row := Row{Codec: codec, Scenario: scenario, Inputs: len(results)}
	index := map[string]int{} // outcome + origin -> index in row.Findings
	note := func(o Outcome, r Result, msg string) {
		key := string(o) + "\x00" + r.Origin
		if o == Crashed {
			key += "\x00" + r.Message
		}
		if i, ok := index[key]; ok {
			row.Findings[i].Count++
			return
		}
		index[key] = len(row.Findings)
		row.Findings = append(row.Findings, Finding{Outcome: o, Input: r.Input, Size: r.Size, Count: 1, Message: msg, Origin: r.Origin})
	}
	for _, r := range results {
		switch r.Outcome {
		case Rejected:
			row.Rejected++
		case Accepted:
			row.Accepted++
		case Panicked:
			row.Panics++
			note(Panicked, r, r.Message)
		case Skipped:
			row.Skipped++
		default:
			row.Killed++
			if r.Outcome == OutOfMemory {
				row.Bombs++
			}
			note(r.Outcome, r, r.Message)
		}
		if r.Alloc >= 0 {
			if per := float64(r.Alloc) / float64(max(r.Size, 1)); per > row.WorstAllocPerByte {
				row.WorstAllocPerByte, row.WorstAllocInput, row.WorstAlloc = per, r.Input, r.Alloc
			}
			if IsBomb(r.Alloc, r.Size) {
				row.Bombs++
				note(AllocBomb, Result{Input: r.Input, Size: r.Size}, fmt.Sprintf("allocated %d bytes for %d input bytes", r.Alloc, r.Size))
			}
			if r.Time > row.WorstTime {
				row.WorstTime, row.WorstTimeInput = r.Time, r.Input
			}
		}
	}
	return row
}
