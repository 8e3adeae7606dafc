package evolve

import (
	"errors"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
)

// Options configure NewReport. Validate checks them once.
type Options struct {
	// Registry holds the reflection codecs of the matrix (AllCodecs of
	// its codecs) and the versions the environment records. Required.
	Registry *codec.Registry
	// Codecs are row IDs (SelectCodecs), Changes change IDs
	// (SelectChanges); empty means all.
	Codecs, Changes []string
	// Env returns the environment the report records, given when the run
	// started and the codecs of the rows. Default env.Collect with
	// their modules.
	Env func(started time.Time, used []codec.Codec) env.Env
}

// Validate returns an error naming unknown codec or change IDs, or a
// missing Registry.
func (o Options) Validate() error {
	_, _, err := o.selected()
	return err
}

func (o Options) selected() ([]Codec, []Change, error) {
	if o.Registry == nil {
		return nil, nil, errors.New("evolve: no codec registry")
	}
	rows, err := SelectCodecs(AllCodecs(o.Registry.All()), o.Codecs)
	if err != nil {
		return nil, nil, err
	}
	changes, err := SelectChanges(o.Changes)
	return rows, changes, err
}

// NewReport runs the matrix of o's rows × changes (Run) and returns the
// complete report, environment included. Bad options and a codec that
// cannot build its sides are errors.
func NewReport(o Options) (Report, error) {
	rows, changes, err := o.selected()
	if err != nil {
		return Report{}, err
	}
	started := time.Now()
	cells, err := Run(rows, changes)
	if err != nil {
		return Report{}, err
	}
	var used []codec.Codec
	for _, r := range rows {
		if c, ok := o.Registry.Lookup(strings.Split(r.ID, "/")[0]); ok {
			used = append(used, c)
		}
	}
	if o.Env == nil {
		o.Env = codec.Env
	}
	return Report{Schema: SchemaID, Env: o.Env(started, used), Changes: changes, Codecs: rows, Cells: cells}, nil
}
