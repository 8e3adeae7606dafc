package bench

import (
	"math"
	"time"
)

// The probes of the noise meter besides its calibration loop (spin). Each
// does a fixed amount of work chosen to feel one kind of disturbance:
//
//   - ilp: eight independent multiply-xorshift chains. A core can run them
//     side by side (instruction-level parallelism), so they need the issue
//     ports and the multiplier that a hyperthread sibling shares; a busy
//     sibling slows them, while spin (one dependent chain, each step
//     waiting for the last) leaves the ports idle anyway and barely moves.
//   - chase: a pointer chase over a random cyclic permutation of a buffer
//     larger than L2 (probeBufBytes). Each load depends on the last and
//     most miss the caches, so it feels cache and memory neighbours.
//   - stream: a sequential sum over the same buffer: memory bandwidth.
//
// The loops allocate nothing and are deterministic; their results go to
// noiseSink so that the compiler keeps them.

// probeBufBytes is the size of the chase and stream buffer: 8 MiB, larger
// than the L2 cache of current x86 and arm64 cores.
const probeBufBytes = 8 << 20

// ilp runs n iterations of eight independent multiply-xorshift chains.
func ilp(n int) uint64 {
	const k = 0x9e3779b97f4a7c15
	a, b, c, d := uint64(1), uint64(2), uint64(3), uint64(4)
	e, f, g, h := uint64(5), uint64(6), uint64(7), uint64(8)
	for range n {
		a = (a ^ a>>29) * k
		b = (b ^ b>>29) * k
		c = (c ^ c>>29) * k
		d = (d ^ d>>29) * k
		e = (e ^ e>>29) * k
		f = (f ^ f>>29) * k
		g = (g ^ g>>29) * k
		h = (h ^ h>>29) * k
	}
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h
}

// chase follows n links of the cycle in buf from index 0 and returns the
// index it stops at.
func chase(buf []uint32, n int) uint64 {
	i := uint32(0)
	for range n {
		i = buf[i]
	}
	return uint64(i)
}

// stream sums n elements of buf in order, wrapping at its end.
func stream(buf []uint32, n int) uint64 {
	var s uint64
	for n > 0 {
		m := min(n, len(buf))
		for _, v := range buf[:m] {
			s += uint64(v)
		}
		n -= m
	}
	return s
}

// fillCycle makes buf one random cycle through all its indices (Sattolo's
// algorithm), drawn from a fixed xorshift seed so that every run chases
// the same cycle.
func fillCycle(buf []uint32) {
	for i := range buf {
		buf[i] = uint32(i)
	}
	x := uint64(88172645463325252)
	for i := len(buf) - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i)) // j < i: one cycle, never a fixed point
		buf[i], buf[j] = buf[j], buf[i]
	}
}

// calibrateIters doubles an iteration count from 1 until run(n) takes at
// least target (or n reaches 1<<32) and returns it. Each count is timed
// up to tries times and judged by its fastest timing, so that one timing
// stretched by a preemption does not end the doubling early and leave the
// probe far shorter than target (the short probes use probeTries; the
// calibration loop, sized to a whole Benchtime, keeps its single timing).
func calibrateIters(target time.Duration, tries int, run func(n int) uint64) int {
	n := 1
	for {
		fastest := time.Duration(math.MaxInt64)
		for range max(tries, 1) {
			t := time.Now()
			noiseSink += run(n)
			fastest = min(fastest, time.Since(t))
			if fastest < target {
				break // too short already: double
			}
		}
		if fastest >= target || n >= 1<<32 {
			return n
		}
		n *= 2
	}
}

// probeTries is how many timings of one count calibrateIters takes for
// the short probes before it accepts that the count reaches its target.
const probeTries = 3
