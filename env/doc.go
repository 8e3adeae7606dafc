// Package env holds the facts about the machine and the process that every
// serbench document records beside its figures, so that a reader can judge
// them: Env (toolchain, encoding/json engine, CPU model, kernel, load,
// emulation), the machine noise a run measured (Noise, CoreSharing), and
// the readers those facts come from: /proc/cpuinfo, /proc/stat
// (ReadCPUStat: steal and per-CPU busy time), getrusage(2) (ProcessUsage:
// process CPU time and peak memory), clock_gettime(2) (ThreadCPUTime: the
// calling thread's CPU time), /proc/self/status (PeakRSS) and
// /proc/PID/statm (ResidentBytes).
//
// env imports only the standard library: every document producer (run,
// load, hostile, conformance, evolve, fidelity, plan, ...) imports it for
// its environment without linking the runner (package bench), which
// measures the noise and fills Noise and LiveHeap.
//
// The readers never fail a run: where a file or system call is missing
// (other systems, containers without /proc) they return "" or 0, or an
// error that the caller records as unreadable.
package env
