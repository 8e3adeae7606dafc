//go:build !race

package childproc

// RaceEnabled is true in a binary built with -race (see race.go).
const RaceEnabled = false
