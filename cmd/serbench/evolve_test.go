package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/internal/golden"
)

// TestEvolveCommand runs serbench evolve in a child process per format
// (TestEvolveChild): gob numbers the types it meets in a process, so the
// evolve types would change the gob sizes of every later test of this
// package (and theirs the evolve gob sizes) if they shared one.
func TestEvolveCommand(t *testing.T) {
	for _, format := range evolve.Formats {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "evolve."+format)
			cmd := exec.Command(os.Args[0], "-test.run=^TestEvolveChild$")
			cmd.Env = append(os.Environ(), evolveChildEnv+"="+format+" "+out)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("child: %v\n%s", err, msg)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			// json-v2 picks "cannot" or "unable to" at random once per
			// process (errorModalVerb in its errors.go); the golden has one.
			got = bytes.ReplaceAll(got, []byte("json: unable to "), []byte("json: cannot "))
			golden.Check(t, filepath.Join("testdata", "evolve."+format), got)
			if format == "json" {
				if err := schema.Validate(got); err != nil {
					t.Errorf("output does not conform to docs/schema: %v", err)
				}
			}
		})
	}
}

// evolveChildEnv holds "FORMAT FILE" in the child of TestEvolveCommand.
const evolveChildEnv = "SERBENCH_EVOLVE_CHILD"

// TestEvolveChild is TestEvolveCommand's child: it writes the evolve report
// in FORMAT with a fixed environment into FILE and, for json, checks that
// serbench evolve writes the same report apart from the environment. It
// does nothing otherwise.
func TestEvolveChild(t *testing.T) {
	format, out, ok := strings.Cut(os.Getenv(evolveChildEnv), " ")
	if !ok {
		t.Skip("runs only as the child of TestEvolveCommand")
	}
	// The flags in effect, as serbench evolve -format FORMAT records them.
	settings := []string{"changes=", "codecs=", "format=" + format, "o="}
	fixed := func(time.Time, []codec.Codec) env.Env {
		return env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/vmihailenco/msgpack/v5": "v5.4.1"},
			Settings: settings}
	}
	rep, err := evolve.NewReport(evolve.Options{Registry: all.Registry(), Env: fixed})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := evolve.Write(&want, format, rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, want.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if format != "json" {
		return
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"evolve", "-format", "json"}); err != nil {
		t.Fatal(err)
	}
	var got evolve.Report
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Env.Go == "" || !slices.Equal(got.Env.Settings, settings) {
		t.Errorf("serbench evolve env %+v: want this machine's, with the flags", got.Env)
	}
	rep.Env = got.Env
	var same bytes.Buffer
	if err := evolve.Write(&same, "json", rep); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stdout.Bytes(), same.Bytes()) {
		t.Errorf("serbench evolve -format json wrote\n%s\nwant\n%s", stdout.Bytes(), same.Bytes())
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
		if err == nil || !strings.Contains(err.Error(), tt.want) || exitCode(err) != 2 {
			t.Errorf("%v: err = %v (exit %d), want one containing %s (exit 2)", tt.args, err, exitCode(err), tt.want)
		}
	}
}
