// Command noisyneighbour is a co-runner that makes a machine noisy on
// purpose, to see what serbench's noise meter (env.Noise) and the
// timings make of it. It alternates between idle and a busy loop every
// -period, for -duration at most or until SIGINT or SIGTERM, and prints one
// line when each phase starts. The busy loop writes at random over a
// 32 MiB buffer (cache and memory traffic, beyond any L2 and most L3
// slices) while running independent multiply chains (issue slots and the
// multiplier, which a hyperthread sibling shares). With -cpu it pins itself
// to that CPU; scripts/noisy-neighbour.sh runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/serbench/serbench/internal/affinity"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "noisyneighbour:", err)
		os.Exit(2)
	}
}

// busyBytes is the size of the buffer the busy phase writes over: 32 MiB.
const busyBytes = 32 << 20

// Limits of the flags.
const (
	minPeriod   = time.Millisecond
	maxDuration = 24 * time.Hour
)

func run(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("noisyneighbour", flag.ContinueOnError)
	cpu := fs.Int("cpu", -1, "pin to this CPU (sched_setaffinity); -1 leaves the affinity as it is (e.g. set by taskset)")
	period := fs.Duration("period", 3*time.Second, "length of each idle and each busy phase")
	duration := fs.Duration("duration", 30*time.Minute, "stop after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *period < minPeriod {
		return fmt.Errorf("invalid -period %v (at least %v)", *period, minPeriod)
	}
	if *duration <= 0 || *duration > maxDuration {
		return fmt.Errorf("invalid -duration %v (range is (0, %v])", *duration, maxDuration)
	}
	where := "the CPUs it was given"
	if *cpu >= 0 {
		if _, err := affinity.Pin([]int{*cpu}); err != nil {
			return err
		}
		where = fmt.Sprintf("CPU %d", *cpu)
	}
	ctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()

	buf := make([]uint64, busyBytes/8)
	var sink uint64
	for busy := false; ; busy = !busy {
		end := time.Now().Add(*period)
		phase := "idle"
		if busy {
			phase = "busy"
		}
		if _, err := fmt.Fprintf(stdout, "%s %s on %s for %v\n", time.Now().Format("15:04:05.000"), phase, where, *period); err != nil {
			return err
		}
		if busy {
			sink += churn(ctx, buf, end)
		} else {
			t := time.NewTimer(time.Until(end))
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
		if ctx.Err() != nil {
			_, err := fmt.Fprintf(stdout, "%s stopped (%v); checksum %x\n", time.Now().Format("15:04:05.000"), context.Cause(ctx), sink&0xff)
			return err
		}
	}
}

// churn runs the busy loop until end or until ctx is done: random
// read-modify-writes over buf (its length a power of two) beside four
// independent multiply chains. It returns a value that depends on all the
// work, so that none of it can be dropped.
func churn(ctx context.Context, buf []uint64, end time.Time) uint64 {
	const k = 0x9e3779b97f4a7c15
	mask := uint64(len(buf) - 1)
	x := uint64(88172645463325252)
	a, b, c, d := uint64(1), uint64(2), uint64(3), uint64(4)
	for {
		for range 1 << 14 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			buf[x&mask] += x
			a = (a ^ a>>29) * k
			b = (b ^ b>>29) * k
			c = (c ^ c>>29) * k
			d = (d ^ d>>29) * k
		}
		if ctx.Err() != nil || !time.Now().Before(end) {
			return x ^ a ^ b ^ c ^ d
		}
	}
}
