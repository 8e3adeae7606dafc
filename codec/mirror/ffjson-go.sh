#!/bin/sh
# The go command that ffjson runs (its -go-cmd flag). ffjson builds and runs a
# helper program with "go run -a"; -a rebuilds every package, the standard
# library included, on each run (a minute or more of CPU), which the build
# cache has made unnecessary: it keys builds on their sources, so the result
# is the same program. This drops -a and passes everything else unchanged.
if [ "$1" = run ] && [ "$2" = -a ]; then
	shift 2
	exec go run "$@"
fi
exec go "$@"
