//go:build race

package childproc

// RaceEnabled is true in a binary built with -race. The race detector maps
// terabytes of shadow memory, which any RLIMIT_DATA a child could set would
// refuse, so such a child sets none.
const RaceEnabled = true
