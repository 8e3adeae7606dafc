package main

import (
	"context"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/probe"
	"github.com/serbench/serbench/report"
)

// addDropIn measures the drop-in class of each codec of cs against the
// reference of its format (package dropin; the probes that may recurse
// without end run in child processes of this executable) and sets it on
// the matching entries of infos.
func addDropIn(ctx context.Context, infos []report.CodecInfo, cs []codec.Codec) error {
	iso := probe.Isolator{}
	classes, err := dropin.Classes(ctx, cs, all.Registry().Lookup, dropin.Options{Isolate: iso.Cell})
	if err != nil {
		return err
	}
	for i := range infos {
		infos[i].DropIn = classes[infos[i].ID]
	}
	return nil
}
