package env

import (
	"fmt"
	"math"
)

// CoreSharing is the result of bench.CheckCoreSharing: how much a busy
// neighbouring CPU slows the ILP probe (eight independent multiply chains)
// on another. On most x86 clouds a vCPU is one hyperthread of a physical
// core, and a guest cannot see which vCPUs are siblings; a sibling kept
// busy (by another tenant, the Go runtime's background GC workers or
// serbench's own goroutines) takes issue slots and L1/L2 from the CPU
// that times the codecs, which slows throughput-heavy code such as codec
// loops far more than it slows a dependent chain.
type CoreSharing struct {
	// CPU is the processor the probe ran on, Neighbour the one kept idle,
	// then busy.
	CPU       int `json:"cpu"`
	Neighbour int `json:"neighbour"`
	// IdleNs and BusyNs are the median timings of the probe, in ns of the
	// probing thread's CPU time, with the neighbour idle and with it
	// spinning on an ILP-heavy loop. CPU time, not wall time: a thread
	// that shares its CPU by turns with another (the scheduler moving
	// work off the busy neighbour) loses wall time but not CPU time, while
	// a hyperthread sibling slows the thread as it runs.
	IdleNs float64 `json:"idle_ns"`
	BusyNs float64 `json:"busy_ns"`
	// Slowdown is BusyNs over IdleNs: 1.25 means the busy neighbour made
	// the probe 25% slower.
	Slowdown float64 `json:"slowdown"`
	// Shared is Slowdown above CoreSharingLimit in every round but at
	// most one (see RoundSlowdowns): the two CPUs appear to be hyperthreads
	// of one physical core.
	Shared bool `json:"shared"`
	// RoundSlowdowns is each ABBA round's median busy timing over its
	// median idle timing, in round order (8 rounds). A sibling slows every
	// round alike; other work on the machine (a co-runner migrated onto the
	// probing CPU, the hypervisor descheduling the vCPU) slows some rounds
	// and not others.
	RoundSlowdowns []float64 `json:"round_slowdowns,omitempty"`
	// Unsure is set when Slowdown is above CoreSharingLimit but the rounds
	// disagree (more than one round at or below it): the check cannot tell
	// sharing from other work running during it, and Shared is false.
	Unsure bool `json:"unsure,omitempty"`
}

// CoreSharingLimit is the Slowdown above which Judge calls two
// CPUs to share a physical core. Separate cores slow each other's
// register-only loop by a few percent at most (turbo budget, timer
// interrupts); a hyperthread sibling running the same loop takes about
// half the issue slots, so a slowdown of more than 15% is taken as sharing.
const CoreSharingLimit = 1.15

// Verdict says in one sentence what c found.
func (c CoreSharing) Verdict() string {
	if c.Unsure {
		return fmt.Sprintf("CPUs %d and %d: the core-sharing check could not tell (a busy neighbour slowed the ILP probe by %d%% overall, but by more than %d%% in only %d of %d rounds: other work ran during the check)",
			c.CPU, c.Neighbour, c.SlowdownPercent(), int(math.Round(100*(CoreSharingLimit-1))), c.RoundsAbove(), len(c.RoundSlowdowns))
	}
	if c.Shared {
		return fmt.Sprintf("CPUs %d and %d appear to share a physical core (hyperthreads): a busy neighbour slows the ILP probe by %d%%",
			c.CPU, c.Neighbour, c.SlowdownPercent())
	}
	return fmt.Sprintf("CPUs %d and %d appear to be separate cores: a busy neighbour changes the ILP probe by %+d%%",
		c.CPU, c.Neighbour, c.SlowdownPercent())
}

// RoundsAbove counts the rounds whose slowdown is above CoreSharingLimit.
func (c CoreSharing) RoundsAbove() int {
	n := 0
	for _, r := range c.RoundSlowdowns {
		if r > CoreSharingLimit {
			n++
		}
	}
	return n
}

// Judge sets Slowdown, Shared and Unsure from IdleNs, BusyNs and
// RoundSlowdowns: sharing is claimed only when the overall slowdown and
// all rounds but at most one are above CoreSharingLimit. The check calls
// it once its timings are in.
func (c *CoreSharing) Judge() {
	c.Slowdown, c.Shared, c.Unsure = 0, false, false
	if c.IdleNs > 0 {
		c.Slowdown = c.BusyNs / c.IdleNs
	}
	if c.Slowdown <= CoreSharingLimit {
		return
	}
	if c.RoundsAbove() >= len(c.RoundSlowdowns)-1 {
		c.Shared = true
	} else {
		c.Unsure = true
	}
}

// SlowdownPercent is Slowdown as a percentage rounded to a whole number:
// 25 for a Slowdown of 1.25, negative when the busy neighbour's probe ran
// faster. Reports print it.
func (c CoreSharing) SlowdownPercent() int { return int(math.Round(100 * (c.Slowdown - 1))) }
