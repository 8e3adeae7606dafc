// Package thriftgen holds the Go structs that the Thrift compiler generated
// from schema/thrift/serbench.thrift (see the go:generate lines of package
// codec/thrift and its TestGeneratedCodeIsCurrent). Only this file is
// written by hand.
package thriftgen
