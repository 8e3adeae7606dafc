package hostile_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/cbor"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

// runRegistry holds the codecs TestRun feeds, in the parent and the child.
func runRegistry() *codec.Registry {
	reg, err := codec.NewRegistry(stdjson.New(), cbor.New())
	if err != nil {
		panic(err)
	}
	return reg
}

func TestRun(t *testing.T) {
	ss, err := scenario.Select(scenario.Seeds(), []string{"ws-message"})
	if err != nil {
		t.Fatal(err)
	}
	var progress []string
	each := map[string]int{}
	doc, err := hostile.Run(context.Background(), hostile.RunOptions{
		Codecs:    runRegistry().All(),
		Scenarios: ss,
		Gen:       hostile.GenOptions{Seed: 7, Flips: 4, Depth: 100},
		Progress:  func(id string, i, n int) { progress = append(progress, id) },
		Each: func(row hostile.Row, inputs []hostile.Input) error {
			each[row.Codec] = len(inputs)
			return nil
		},
		Env: func(_ time.Time, used []codec.Codec) env.Env {
			return env.Env{CPU: "Test CPU", NumCPU: len(used)}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Seed != 7 || doc.Limits.Time != hostile.DefaultTime || len(doc.Rows) != 2 || doc.Env.CPU != "Test CPU" || doc.Env.NumCPU != 2 {
		t.Fatalf("document: seed %d, limits %+v, %d rows, env %+v", doc.Seed, doc.Limits, len(doc.Rows), doc.Env)
	}
	for i, id := range []string{"encoding/json", "cbor"} {
		r := doc.Rows[i]
		if r.Codec != id || r.Scenario != "ws-message" || r.Error != "" || r.Inputs == 0 || r.Inputs != each[id] {
			t.Errorf("row %d: %+v (Each saw %d inputs)", i, r, each[id])
		}
		if r.Rejected == 0 {
			t.Errorf("%s rejected none of %d malformed inputs", id, r.Inputs)
		}
	}
	if strings.Join(progress, ",") != "encoding/json,cbor" {
		t.Errorf("progress %v", progress)
	}
	if _, err := hostile.Run(context.Background(), hostile.RunOptions{Scenarios: ss}); err == nil || !strings.Contains(err.Error(), "0 codecs") {
		t.Errorf("no codecs: %v", err)
	}
	bad := hostile.RunOptions{Codecs: runRegistry().All(), Scenarios: ss, Limits: hostile.Limits{Memory: 1}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "memory limit") {
		t.Errorf("memory limit of 1 byte: %v", err)
	}
}
