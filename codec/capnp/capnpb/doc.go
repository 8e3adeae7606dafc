// Package capnpb holds the Cap'n Proto accessors that capnpc-go generated
// from schema/capnp/serbench.capnp (see the go:generate line of package
// codec/capnp, which regenerates serbench.capnp.go, and its
// TestGeneratedCodeIsCurrent). Only this file is written by hand.
package capnpb
