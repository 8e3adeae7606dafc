package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/google/pprof/profile"

	"github.com/serbench/serbench/codec"
)

// profileMemRate is runtime.MemProfileRate during a memory-profiling pass:
// one sample per 4 KiB allocated, fine enough for the small payloads here.
const profileMemRate = 4096

// ProfileName returns the file name of a cell's profile:
// <codec>_<scenario>_<op>.pprof, each part escaped by codec.EscapeID ("/"
// written as "."), as in benchmark names.
func ProfileName(codecID, scenarioID, op string) string {
	return codec.EscapeID(codecID) + "_" + codec.EscapeID(scenarioID) + "_" + codec.EscapeID(op) + ".pprof"
}

// profile runs c's profiling passes: one under the CPU profiler, then one
// with heap profiling on, each for the profile dirs set. Two passes, not
// one: heap profiling at profileMemRate takes a stack trace every few KiB
// allocated, which a CPU profile of the same pass would show as a third of
// an allocating codec's time (runtime.tracebackPCs under mallocgc).
func (c *cell) profile(opts Options) error {
	if opts.CPUProfileDir != "" {
		o := opts
		o.MemProfileDir = ""
		if err := c.profilePass(o); err != nil {
			return err
		}
	}
	if opts.MemProfileDir != "" {
		o := opts
		o.CPUProfileDir = ""
		return c.profilePass(o)
	}
	return nil
}

// profilePass runs c once more for opts.ProfileTime worth of operations (at
// least as many as all its samples took), under
// the CPU profiler or with heap profiling on, and writes the profile.
// The heap profile holds only this pass's allocations: the runtime's heap
// profile is cumulative, so the profile taken before the pass is subtracted
// (as `go tool pprof -base` does).
func (c *cell) profilePass(opts Options) error {
	if c.fn == nil {
		return nil
	}
	name := ProfileName(c.Codec, c.Scenario, c.Op)
	n := c.Iterations * opts.Count
	if len(c.ns) > 0 {
		if ns := summarize(c.ns).Center; ns > 0 {
			n = max(n, int(min(float64(opts.ProfileTime)/ns, 1e9)))
		}
	}
	var base *profile.Profile
	if opts.MemProfileDir != "" {
		old := runtime.MemProfileRate
		runtime.MemProfileRate = profileMemRate
		defer func() { runtime.MemProfileRate = old }()
		runtime.GC()
		var err error
		if base, err = heapProfile(); err != nil {
			return err
		}
	}
	var cpu bytes.Buffer
	if opts.CPUProfileDir != "" {
		if err := pprof.StartCPUProfile(&cpu); err != nil {
			return fmt.Errorf("bench: cpu profile of %s: %w", name, err)
		}
	}
	err := c.fn(n)
	if opts.CPUProfileDir != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		c.stop(err)
		return nil
	}
	if opts.CPUProfileDir != "" {
		if err := writeFile(filepath.Join(opts.CPUProfileDir, name), cpu.Bytes()); err != nil {
			return err
		}
	}
	if opts.MemProfileDir != "" {
		runtime.GC() // publish the pass's allocations to the heap profile
		after, err := heapProfile()
		if err != nil {
			return err
		}
		base.Scale(-1)
		delta, err := profile.Merge([]*profile.Profile{after, base})
		if err != nil {
			return fmt.Errorf("bench: heap profile of %s: %w", name, err)
		}
		var buf bytes.Buffer
		if err := delta.Write(&buf); err != nil {
			return fmt.Errorf("bench: heap profile of %s: %w", name, err)
		}
		if err := writeFile(filepath.Join(opts.MemProfileDir, name), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func heapProfile() (*profile.Profile, error) {
	var buf bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&buf, 0); err != nil {
		return nil, fmt.Errorf("bench: heap profile: %w", err)
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		return nil, fmt.Errorf("bench: heap profile: %w", err)
	}
	return p, nil
}

func writeFile(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("bench: write profile: %w", err)
	}
	return nil
}
