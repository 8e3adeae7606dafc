// Package bebopgen holds the Go structs and methods that bebopc-go
// generated from schema/bebop/serbench.bop (see the go:generate lines of
// package codec/bebop and its TestGeneratedCodeIsCurrent). Only this file is
// written by hand.
package bebopgen
