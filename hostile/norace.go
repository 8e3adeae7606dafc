//go:build !race

package hostile

// raceEnabled is true in a binary built with -race (see race.go).
const raceEnabled = false
