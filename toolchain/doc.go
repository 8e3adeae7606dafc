// Package toolchain measures the same codec × scenario matrix under several
// Go toolchains (and GOEXPERIMENT settings) at once: serbench run -go.
//
// A Builder makes one serbench binary per Spec (GoBuilder: go build with
// GOTOOLCHAIN set, the toolchain fetched through the module proxy as the
// go command does). Measure starts each binary as a worker (Serve is the
// worker's side), has each prepare and calibrate the matrix, and then
// interleaves their samples: round r asks every worker in turn for one
// sample of every cell, starting with a different worker each round, so
// that a change in the machine's speed during the run touches every
// toolchain alike. Only one worker samples at a time; the others wait on
// their standard input.
//
// The protocol between the driver and a worker is JSON values, one per
// line: the driver sends a Config, the worker answers a Hello; then each
// request ({"cmd":"round"} or {"cmd":"results"}) gets one reply. A worker
// ends when its standard input closes.
package toolchain
