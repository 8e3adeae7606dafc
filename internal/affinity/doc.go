// Package affinity pins the process to chosen processors (serbench run
// -pin). It is a package of its own so that bench, and the root package a
// go test user links, do not link golang.org/x/sys.
package affinity
