// Package results is the model of a serbench run and its file formats.
//
// Run is one run: its environment, selection and rows (Row: the measured
// figures of one (codec, scenario, op) cell, with the types a row carries:
// ParallelPoint, StreamSizes, ProcessFigures), and the figures the rows
// imply: each row's Derived (speed-ups, floor ratio, bytes over JSON,
// modes) and the run's (recommendations, geomeans, plateaus), all computed
// by one unexported function (derive.go). NewRun builds a run from everything it is made of
// (Inputs: the environment, the selection, the measurement);
// MergeProcesses pools the runs of a run split over processes; Read and
// ReadFile read one back from serbench/v1 JSON (WriteJSON) or the Go
// benchmark format (WriteBenchfmt, with its "// serbench:" note lines,
// which package serbench's benchmarks log too: NoteText). Each of them
// derives what the rows imply, so that a run is complete when it is
// built and every writer only reads it. Field names in JSON follow the
// serbench/v1 contract of docs/reference.md, "JSON documents".
//
// The package imports no producer or renderer of runs: package bench
// measures the rows, package report renders runs.
package results
