// Package bencgen holds the Go structs and methods that bencgen generated
// from schema/benc/serbench.benc (see the go:generate lines of package
// codec/benc and its TestGeneratedCodeIsCurrent). Only this file is written
// by hand.
package bencgen
