// Package profiler writes pprof files for bench's profiling pass
// (bench.Options.Profiler): a CPU profile from runtime/pprof and a heap
// profile of the pass's allocations alone. It is a package of its own so
// that bench, and the root package that a go test user links, do not link
// runtime/pprof and github.com/google/pprof.
package profiler

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/google/pprof/profile"

	"github.com/serbench/serbench/bench"
)

// MemProfileRate is runtime.MemProfileRate during a memory-profiling pass:
// one sample per 4 KiB allocated, fine enough for the small payloads
// serbench times.
const MemProfileRate = 4096

// Dirs is a bench.Profiler that writes one pprof file per cell, named by
// bench.ProfileName, into the folders set: CPU for the CPU profile, Mem
// for the heap profile. An empty folder takes no profile of that kind;
// the folders must exist. Existing files of the same name are replaced.
type Dirs struct {
	CPU string
	Mem string
}

var _ bench.Profiler = Dirs{}

// Profile runs run once under the CPU profiler (when d.CPU is set), then
// once more with heap profiling at MemProfileRate (when d.Mem is set), and
// writes the profiles as d.CPU/name and d.Mem/name. Two passes, not one:
// heap profiling takes a stack trace every few KiB allocated, which a CPU
// profile of the same pass would show as a third of an allocating codec's
// time (runtime.tracebackPCs under mallocgc). The heap profile holds only
// its pass's allocations: the runtime's heap profile is cumulative, so the
// profile taken before the pass is subtracted (as `go tool pprof -base`
// does). An error from run is returned as is, with nothing more written.
func (d Dirs) Profile(name string, run func() error) error {
	if d.CPU != "" {
		if err := cpuPass(filepath.Join(d.CPU, name), run); err != nil {
			return err
		}
	}
	if d.Mem != "" {
		return heapPass(filepath.Join(d.Mem, name), run)
	}
	return nil
}

// cpuPass runs run under the CPU profiler and writes the profile to path.
func cpuPass(path string, run func() error) error {
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		return fmt.Errorf("profiler: cpu profile %s: %w", path, err)
	}
	err := run()
	pprof.StopCPUProfile()
	if err != nil {
		return err
	}
	return writeFile(path, cpu.Bytes())
}

// heapPass runs run with heap profiling at MemProfileRate and writes the
// profile of its allocations alone to path.
func heapPass(path string, run func() error) error {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = MemProfileRate
	defer func() { runtime.MemProfileRate = old }()
	runtime.GC()
	base, err := heapProfile()
	if err != nil {
		return err
	}
	if err := run(); err != nil {
		return err
	}
	runtime.GC() // publish the pass's allocations to the heap profile
	after, err := heapProfile()
	if err != nil {
		return err
	}
	base.Scale(-1)
	delta, err := profile.Merge([]*profile.Profile{after, base})
	if err != nil {
		return fmt.Errorf("profiler: heap profile %s: %w", path, err)
	}
	var buf bytes.Buffer
	if err := delta.Write(&buf); err != nil {
		return fmt.Errorf("profiler: heap profile %s: %w", path, err)
	}
	return writeFile(path, buf.Bytes())
}

func heapProfile() (*profile.Profile, error) {
	var buf bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&buf, 0); err != nil {
		return nil, fmt.Errorf("profiler: heap profile: %w", err)
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		return nil, fmt.Errorf("profiler: heap profile: %w", err)
	}
	return p, nil
}

// writeFile writes b to path through a temporary file in the same folder
// and a rename, so a failed write leaves no half-written profile.
func writeFile(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".profile-*")
	if err != nil {
		return fmt.Errorf("profiler: write profile: %w", err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("profiler: write profile %s: %w", path, err)
	}
	return nil
}

// Create makes each folder of d that is set and does not exist yet (with
// its parents), and fails when a path exists but is not a folder.
func (d Dirs) Create() error {
	for _, dir := range []string{d.CPU, d.Mem} {
		if dir == "" {
			continue
		}
		fi, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("profile folder: %w", err)
			}
		case err != nil:
			return fmt.Errorf("profile folder: %w", err)
		case !fi.IsDir():
			return fmt.Errorf("profile folder %s: not a directory", dir)
		}
	}
	return nil
}
