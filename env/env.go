package env

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Env records where and how a run happened, so that a reader can judge its
// numbers. Field names in JSON follow the serbench/v1 contract of docs/reference.md, "JSON documents".
type Env struct {
	// Go is the toolchain that built the binary (runtime.Version: "go1.27.4").
	Go string `json:"go"`
	// GOEXPERIMENT is the experiments the binary was built with that differ
	// from its toolchain's defaults, as the go command records them
	// ("nojsonv2"), "" for none or where unknown.
	GOEXPERIMENT string `json:"goexperiment,omitempty"`
	// JSONEngine is the encoding/json implementation that ran: JSONEngineV2
	// ("v2", encoding/json on the encoding/json/v2 engine) or
	// JSONEngineLegacy ("legacy"); "" where unknown (older documents,
	// go test output).
	JSONEngine string `json:"json_engine,omitempty"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	// Started is when the run began, written in RFC 3339.
	Started time.Time `json:"started"`
	// Modules maps each codec library's module path to its version.
	Modules map[string]string `json:"modules"`
	// Kernel is the OS release (/proc/sys/kernel/osrelease), "" where unreadable.
	Kernel string `json:"kernel,omitempty"`
	// Governor is the CPU frequency governor of CPU 0, "" where unreadable
	// (as on most virtual machines).
	Governor string `json:"governor,omitempty"`
	// GOGC is the GOGC environment variable in effect, "" for the default (100).
	GOGC string `json:"gogc,omitempty"`
	// LoadAvg is /proc/loadavg's 1, 5 and 15 minute load averages at the
	// start, "" where unreadable: the machine may be shared.
	LoadAvg string `json:"loadavg,omitempty"`
	// Serbench is the version of serbench that made the run (its module
	// version from the build info: a release tag, a VCS pseudo-version or
	// "(devel)"); "" where unknown (older documents, go test output).
	Serbench string `json:"serbench,omitempty"`
	// Emulated says why the run appears to have run under a user-mode
	// emulator (see Emulation); "" when it did not. Its speed figures then
	// measure the emulator, not the CPU: only its correctness checks count.
	Emulated string `json:"emulated,omitempty"`
	// Settings records the options the run used, as "name=value" strings.
	Settings []string `json:"settings,omitempty"`
	// Noise is the machine's noise measured during the run (see Noise);
	// absent when not measured (load runs, older documents).
	Noise *Noise `json:"noise,omitempty"`
	// LiveHeap is the GC condition the cells were timed under (see
	// bench.Options.LiveHeap); absent when not recorded (load runs, older
	// documents).
	LiveHeap *LiveHeap `json:"live_heap,omitempty"`
}

// LiveHeap is the live heap a run's cells were timed under (bench.LiveHeap)
// as a run document records it, in bytes.
type LiveHeap struct {
	// TargetBytes is the live heap asked for (-live-heap); 0 for none.
	TargetBytes int64 `json:"target_bytes"`
	// OwnBytes is serbench's own live heap after a GC once every cell was
	// prepared, before any ballast: the selected scenarios, their
	// encodings, the codecs' caches and the runtime's own.
	OwnBytes int64 `json:"own_bytes"`
	// LiveHeapBytes is the live heap after a GC just before timing,
	// ballast included: max(TargetBytes, OwnBytes), give or take what the
	// collection itself freed.
	LiveHeapBytes int64 `json:"live_heap_bytes"`
}

// Collect reads the current process's environment. started is the run's
// start time; modules maps module paths to versions (see codec.Info).
// Emulated is Emulation's finding. Noise, LiveHeap, Serbench and Settings
// are left zero: they describe the run, and its producer fills them.
func Collect(started time.Time, modules map[string]string) Env {
	return Env{
		Go:           runtime.Version(),
		GOEXPERIMENT: goExperiment(),
		JSONEngine:   JSONEngine,
		GOOS:         runtime.GOOS,
		GOARCH:       runtime.GOARCH,
		CPU:          CPUModel(),
		NumCPU:       runtime.NumCPU(),
		GOMAXPROCS:   runtime.GOMAXPROCS(0),
		Started:      started,
		Modules:      modules,
		Kernel:       readTrim("/proc/sys/kernel/osrelease"),
		Governor:     readTrim("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
		GOGC:         os.Getenv("GOGC"),
		LoadAvg:      loadAvg(),
		Emulated:     Emulation(),
	}
}

// loadAvg returns the first three fields of /proc/loadavg, or "".
func loadAvg() string {
	if f := strings.Fields(readTrim("/proc/loadavg")); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// CPUModel returns the first "model name" of /proc/cpuinfo, or "" where
// there is none (other systems).
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// The methods below are the one way serbench's writers state an
// environment in text (table, Markdown, HTML, fidelity, compare, load,
// hostile, conformance, plan); each leaves out what e does not record
// rather than print it as zero.

// Platform returns the toolchain and target, "go1.27.4 linux/amd64"; the
// Go version is left out where unknown.
func (e Env) Platform() string {
	return strings.TrimSpace(e.Go + " " + e.GOOS + "/" + e.GOARCH)
}

// Engine says which encoding/json implementation e ran and under what
// GOEXPERIMENT: "encoding/json v2 engine", "encoding/json legacy engine,
// GOEXPERIMENT=nojsonv2"; "" when e does not record it (older documents,
// go test output).
func (e Env) Engine() string {
	var parts []string
	if e.JSONEngine != "" {
		parts = append(parts, "encoding/json "+e.JSONEngine+" engine")
	}
	if e.GOEXPERIMENT != "" {
		parts = append(parts, "GOEXPERIMENT="+e.GOEXPERIMENT)
	}
	return strings.Join(parts, ", ")
}

// ModuleList returns e.Modules as "path@version" strings sorted by path;
// nil when there are none.
func (e Env) ModuleList() []string {
	var ms []string
	for p, v := range e.Modules {
		ms = append(ms, p+"@"+v)
	}
	sort.Strings(ms)
	return ms
}

// Summary states e on one line, in this order and leaving out what is
// unknown: platform, engine, CPU model, CPU count, GOMAXPROCS and start
// time in RFC 3339: "go1.27.4 linux/amd64, encoding/json v2 engine,
// AMD EPYC 7B13, 2 CPUs, GOMAXPROCS=2, started 2026-11-22T08:00:00Z".
func (e Env) Summary() string {
	parts := []string{e.Platform()}
	if t := e.Engine(); t != "" {
		parts = append(parts, t)
	}
	if e.CPU != "" {
		parts = append(parts, e.CPU)
	}
	if e.NumCPU > 0 {
		parts = append(parts, fmt.Sprintf("%d CPUs", e.NumCPU))
	}
	if e.GOMAXPROCS > 0 {
		parts = append(parts, fmt.Sprintf("GOMAXPROCS=%d", e.GOMAXPROCS))
	}
	if !e.Started.IsZero() {
		parts = append(parts, "started "+e.Started.Format(time.RFC3339))
	}
	return strings.Join(parts, ", ")
}

// Line summarises e on one line for comparing runs: its Summary without
// the start time (which always differs), then its modules.
func (e Env) Line() string {
	e.Started = time.Time{}
	s := e.Summary()
	if ms := e.ModuleList(); len(ms) > 0 {
		s += ", " + strings.Join(ms, " ")
	}
	return s
}
