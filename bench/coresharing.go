package bench

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/stats"
)

// Shape of the core-sharing check: coreRounds alternations (ABBA order) of
// coreTimings timings of the ILP probe, each about coreProbe long; about
// 2*coreRounds*coreTimings probe times in all: 48 to 96 ms, since the
// calibration doubles the iteration count until a probe takes at least
// coreProbe (measured: 0.09 to 0.11 s per check on a 2-vCPU AMD EPYC VM).
const (
	coreRounds  = 8
	coreTimings = 3
	coreProbe   = time.Millisecond
)

// CheckCoreSharing checks whether two CPUs this process may use share a
// physical core (see env.CoreSharing): the first CPU it may use and, when
// /sys/devices/system/cpu/cpuN/topology/thread_siblings_list names one,
// that CPU's sibling, otherwise the next CPU it may use. It needs Linux,
// two usable CPUs and GOMAXPROCS of at least 2, and takes about 0.1 s.
func CheckCoreSharing() (*env.CoreSharing, error) {
	cpus, err := allowedCPUs()
	if err != nil {
		return nil, err
	}
	if len(cpus) < 2 {
		return nil, fmt.Errorf("bench: core sharing: this process may use %d CPU", len(cpus))
	}
	a, b := cpus[0], cpus[1]
	if s, ok := siblingOf(a, cpus); ok {
		b = s
	}
	return CheckCoreSharingCPUs(a, b)
}

// siblingOf returns a CPU among allowed that sysfs lists as a hyperthread
// sibling of cpu, if sysfs shows one (clouds usually hide it).
func siblingOf(cpu int, allowed []int) (int, bool) {
	b, err := os.ReadFile("/sys/devices/system/cpu/cpu" + strconv.Itoa(cpu) + "/topology/thread_siblings_list")
	if err != nil {
		return 0, false
	}
	for _, part := range strings.Split(strings.TrimSpace(string(b)), ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		l, err1 := strconv.Atoi(lo)
		h, err2 := l, error(nil)
		if isRange {
			h, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil {
			return 0, false
		}
		for _, c := range allowed {
			if c != cpu && c >= l && c <= h {
				return c, true
			}
		}
	}
	return 0, false
}

// CheckCoreSharingCPUs times the ILP probe on a thread pinned to cpu,
// alternately with neighbour idle and with a thread pinned to neighbour
// spinning on an ILP-heavy loop, and compares the medians. Both threads
// get their previous affinity back and are then discarded (their
// goroutines end locked to them), so no thread of the process keeps a
// changed mask. It needs Linux and GOMAXPROCS of at least 2.
func CheckCoreSharingCPUs(cpu, neighbour int) (*env.CoreSharing, error) {
	if cpu == neighbour {
		return nil, fmt.Errorf("bench: core sharing: CPU %d given twice", cpu)
	}
	if p := runtime.GOMAXPROCS(0); p < 2 {
		return nil, fmt.Errorf("bench: core sharing: GOMAXPROCS is %d, need 2 to run a neighbour", p)
	}
	type outcome struct {
		cs  *env.CoreSharing
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		// Never unlocked: the thread exits with this goroutine.
		runtime.LockOSThread()
		cs, err := timeCoreSharing(cpu, neighbour)
		done <- outcome{cs, err}
	}()
	o := <-done
	return o.cs, o.err
}

// timeCoreSharing runs on a locked thread: it pins it to cpu, starts the
// neighbour on its own locked thread, and times.
func timeCoreSharing(cpu, neighbour int) (*env.CoreSharing, error) {
	old, err := threadAffinity()
	if err != nil {
		return nil, err
	}
	if err := pinThread(cpu); err != nil {
		return nil, err
	}
	// The thread is discarded after this anyway, so a failed restore
	// changes no thread that lives on.
	defer func() { _ = setThreadAffinity(old) }()

	nb := &coreNeighbour{cmd: make(chan bool), ready: make(chan error, 1), exited: make(chan struct{})}
	go nb.run(neighbour)
	if err := <-nb.ready; err != nil {
		<-nb.exited
		return nil, err
	}
	defer func() { close(nb.cmd); <-nb.exited }()

	if _, err := env.ThreadCPUTime(); err != nil {
		return nil, err
	}
	iters := calibrateIters(coreProbe, probeTries, ilp)
	var idle, busy, rounds []float64
	timeProbe := func(dst *[]float64) {
		for range coreTimings {
			t0, _ := env.ThreadCPUTime() // read once above without error
			noiseSink += ilp(iters)
			t1, _ := env.ThreadCPUTime()
			*dst = append(*dst, float64(t1-t0))
		}
	}
	for r := range coreRounds {
		for _, withBusy := range [2]bool{r%2 == 1, r%2 == 0} { // ABBA
			if !withBusy {
				timeProbe(&idle)
				continue
			}
			nb.cmd <- true
			for !nb.spinning.Load() {
				runtime.Gosched()
			}
			timeProbe(&busy)
			nb.stop.Store(true)
			for nb.spinning.Load() {
				runtime.Gosched()
			}
		}
		n := len(idle)
		if i := stats.Quantile(idle[n-coreTimings:], 0.5); i > 0 {
			rounds = append(rounds, stats.Quantile(busy[n-coreTimings:], 0.5)/i)
		}
	}
	cs := &env.CoreSharing{CPU: cpu, Neighbour: neighbour, IdleNs: stats.Quantile(idle, 0.5), BusyNs: stats.Quantile(busy, 0.5), RoundSlowdowns: rounds}
	cs.Judge()
	return cs, nil
}

// coreNeighbour is the busy neighbour of the core-sharing check. Between
// spins it blocks on cmd, so that its CPU is idle.
type coreNeighbour struct {
	cmd      chan bool // a value: spin until stop; closed: exit
	ready    chan error
	exited   chan struct{}
	stop     atomic.Bool
	spinning atomic.Bool
}

func (nb *coreNeighbour) run(cpu int) {
	defer close(nb.exited)
	// Never unlocked: the thread exits with this goroutine.
	runtime.LockOSThread()
	old, err := threadAffinity()
	if err == nil {
		err = pinThread(cpu)
	}
	nb.ready <- err
	if err != nil {
		return
	}
	// The thread is discarded after this anyway, so a failed restore
	// changes no thread that lives on.
	defer func() { _ = setThreadAffinity(old) }()
	for range nb.cmd {
		nb.stop.Store(false)
		nb.spinning.Store(true)
		for !nb.stop.Load() {
			noiseSink2 += ilp(1024)
		}
		nb.spinning.Store(false)
	}
}

// noiseSink2 is the neighbour's sink: a variable of its own, so that it
// does not write the cache line the timed thread writes.
//
//lint:ignore U1000 written, never read, on purpose (see noiseSink)
var noiseSink2 uint64

// ThreadCPUTime is the CPU time of the calling thread (Linux:
// clock_gettime(2) CLOCK_THREAD_CPUTIME_ID); it stops while the thread
// waits for a CPU. The caller locks itself to its thread
// (runtime.LockOSThread) for two readings to be comparable. Elsewhere it
// is an error.
func ThreadCPUTime() (time.Duration, error) { return env.ThreadCPUTime() }
