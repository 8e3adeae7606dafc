// Package results is the model of a serbench run: Row, the figures of one
// (codec, scenario, op) cell as the runner (package bench) measured them,
// with the types a row carries (ParallelPoint, StreamSizes,
// ProcessFigures). Field names in JSON follow the serbench/v1 contract of
// docs/reference.md, "JSON documents". The package imports no producer or
// renderer of runs: bench produces rows, report renders them.
package results
