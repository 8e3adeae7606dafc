package conformance

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
)

// NewReport records the environment of the codecs that got a row, through
// the injected Env, and refuses an unknown suite before running any.
func TestNewReport(t *testing.T) {
	var used []string
	o := ReportOptions{Options: Options{Suites: []string{"msgpack-test-suite"}, Codecs: []string{"msgpack", "encoding/json"}},
		Env: func(_ time.Time, cs []codec.Codec) env.Env {
			for _, c := range cs {
				used = append(used, c.Info().ID)
			}
			return env.Env{CPU: "Test CPU"}
		}}
	rep, err := NewReport(context.Background(), all.Registry().All(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Schema != Schema || len(rep.Rows) != 1 || rep.Env.CPU != "Test CPU" || strings.Join(used, ",") != "msgpack" {
		t.Errorf("report %q with %d rows, env %+v, env of %v: want one msgpack row and its env", rep.Schema, len(rep.Rows), rep.Env, used)
	}
	o.Suites = []string{"xml"}
	if _, err := NewReport(context.Background(), all.Registry().All(), o); err == nil || !strings.Contains(err.Error(), `unknown suite "xml"`) {
		t.Errorf("unknown suite: %v", err)
	}
}
