package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/internal/golden"
)

func TestEvolveCommand(t *testing.T) {
	old := evolveEnv
	evolveEnv = func(time.Time, map[string]string) bench.Env {
		return bench.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/vmihailenco/msgpack/v5": "v5.4.1"}}
	}
	t.Cleanup(func() { evolveEnv = old })
	for _, format := range evolve.Formats {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), &stdout, &stderr, []string{"evolve", "-format", format}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "evolve."+format), stdout.Bytes())
			if format == "json" {
				if err := schema.Validate(stdout.Bytes()); err != nil {
					t.Errorf("output does not conform to docs/schema: %v", err)
				}
			}
		})
	}
}

func TestEvolveBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"evolve", "-codecs", "nope"}, `unknown codec "nope"`},
		{[]string{"evolve", "-changes", "nope"}, `unknown change "nope"`},
		{[]string{"evolve", "-format", "csv"}, `unknown format "csv"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want one containing %s", tt.args, err, tt.want)
		}
	}
}
