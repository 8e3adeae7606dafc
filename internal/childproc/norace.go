//go:build !race

package childproc

// raceEnabled is true in a binary built with -race (see race.go).
const raceEnabled = false
