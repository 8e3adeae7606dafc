package gencheck_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestCommittedFilesAreRegenerated runs every job into a temporary folder
// and checks that the committed files are byte for byte what the pinned
// generators write. A protoc job skips when protoc is missing, except under
// CI=true, where it fails: CI must install protoc
// (scripts/install-codegen-tools.sh).
func TestCommittedFilesAreRegenerated(t *testing.T) {
	protoc, err := gencheck.ProtocVersion(context.Background())
	if err != nil {
		protoc = err.Error()
	}
	for _, job := range gencheck.Jobs {
		t.Run(job.Name, func(t *testing.T) {
			gencheck.Verify(t, job, "protoc here: "+protoc+"; generated headers name the protoc and plugin versions they were made with")
		})
	}
}

func TestLookup(t *testing.T) {
	for _, j := range gencheck.Jobs {
		if got, err := gencheck.Lookup(j.Name); err != nil || got.Dir != j.Dir {
			t.Errorf("Lookup(%q) = %v, %v", j.Name, got.Dir, err)
		}
	}
	if _, err := gencheck.Lookup("nope"); err == nil {
		t.Error(`Lookup("nope") gave no error`)
	}
}

func TestCompare(t *testing.T) {
	job := gencheck.Job{Name: "t", Outputs: []string{"a.pb.go"}}
	write := func(dir, name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name      string
		want, got map[string]string
		wantErr   string
	}{
		{"same", map[string]string{"a.pb.go": "x\ny\n"}, map[string]string{"a.pb.go": "x\ny\n"}, ""},
		{"differs", map[string]string{"a.pb.go": "x\ny\n"}, map[string]string{"a.pb.go": "x\nz\n"}, "a.pb.go differs from the regenerated file from line 2"},
		{"missing", map[string]string{"a.pb.go": "x"}, map[string]string{}, "no such file"},
		{"extra", map[string]string{"a.pb.go": "x"}, map[string]string{"a.pb.go": "x", "b.pb.go": "y"}, "does not list: b.pb.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, got := t.TempDir(), t.TempDir()
			for n, s := range tt.want {
				write(want, n, s)
			}
			for n, s := range tt.got {
				write(got, n, s)
			}
			err := job.Compare(want, got)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Compare: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Compare = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

// A generator that is not installed is a missing tool (Verify skips); a
// command that fails is an error naming it, with what it printed.
func TestToolAndExec(t *testing.T) {
	ctx := context.Background()
	if _, err := gencheck.Tool(ctx, "serbench-no-such-generator", "v1"); !errors.Is(err, gencheck.ErrMissingTool) {
		t.Errorf("Tool of a missing generator: %v, want ErrMissingTool", err)
	}
	err := gencheck.Go(ctx, "", "no-such-subcommand")
	if err == nil || errors.Is(err, gencheck.ErrMissingTool) || !strings.Contains(err.Error(), "no-such-subcommand") {
		t.Errorf("Go no-such-subcommand: %v, want an error naming the command", err)
	}
	if err := gencheck.Go(ctx, "", "version"); err != nil {
		t.Errorf("go version: %v", err)
	}
}
