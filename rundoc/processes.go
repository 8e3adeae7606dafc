package rundoc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/results"
)

// ProcessOptions split one run over processes (serbench run -processes).
type ProcessOptions struct {
	// N is the number of processes, in [1, results.MaxProcesses]; they run
	// one after the other.
	N int
	// Role is the internal/childproc role that serves one process: its
	// argument is the JSON array that Args returns.
	Role string
	// Args returns the command line of one process, which writes its run
	// document as JSON to the file out.
	Args func(out string) []string
	// Output receives each process's standard output and error.
	Output io.Writer
	// Started, when set, is called as process i (from 1) of N starts.
	Started func(i, n int)
	// Settings are the command-line flags of the whole run, NAME=VALUE
	// (env.settings of the merged document).
	Settings []string
}

// Processes runs o.N processes of this program one after the other and
// merges their documents into one (results.MergeProcesses, which keeps
// each process's figures), with o.Settings, analyzed. Errors are options
// out of range (N, a missing Role or Args) and a process that failed,
// named; ctx stops the process running.
func Processes(ctx context.Context, o ProcessOptions) (*results.Run, error) {
	if o.N < 1 || o.N > results.MaxProcesses {
		return nil, fmt.Errorf("rundoc: invalid ProcessOptions.N %d (range is [1, %d])", o.N, results.MaxProcesses)
	}
	if o.Role == "" || o.Args == nil {
		return nil, errors.New("rundoc: ProcessOptions needs a Role and Args")
	}
	dir, err := os.MkdirTemp("", "serbench-processes-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	docs := make([]*results.Run, o.N)
	for i := range o.N {
		path := filepath.Join(dir, fmt.Sprintf("process-%d.json", i+1))
		if o.Started != nil {
			o.Started(i+1, o.N)
		}
		args, err := json.Marshal(o.Args(path))
		if err != nil {
			return nil, err
		}
		cmd, err := childproc.Command(ctx, "", o.Role, string(args))
		if err != nil {
			return nil, err
		}
		cmd.Stdout, cmd.Stderr = o.Output, o.Output
		err = childproc.Start(cmd)
		if err == nil {
			err = cmd.Wait()
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("rundoc: process %d of %d failed: %w", i+1, o.N, err)
		}
		if docs[i], err = results.ReadFile(path); err != nil {
			return nil, fmt.Errorf("rundoc: process %d of %d: %w", i+1, o.N, err)
		}
	}
	// The merged run takes the first process's environment: it gets the
	// settings of this process, which started them all.
	docs[0].Env.Settings = o.Settings
	return results.MergeProcesses(docs)
}
