//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/serbench/serbench/internal/childproc"
)

// signalRole is a child that sets up serbench's signal handling, says
// "ready", waits for its context to be cancelled, says "cancelled" and
// then ignores its context, as a command stuck in a loop would.
const signalRole = "signal-test"

func init() {
	childRoles[signalRole] = func(string) error {
		ctx, stop := interruptible(context.Background())
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("cancelled")
		for {
			time.Sleep(time.Hour)
		}
	}
}

// TestSignals: the first SIGINT (or SIGTERM) cancels the command's
// context; the second kills the process (before, the handler stayed
// installed for the whole process and a command that did not check its
// context ignored every Ctrl-C).
func TestSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd, err := childproc.Command(ctx, "", signalRole, "")
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := childproc.Start(cmd); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewReader(out)
		expect := func(want string) {
			t.Helper()
			if line, err := lines.ReadString('\n'); err != nil || strings.TrimSpace(line) != want {
				t.Fatalf("%v: child said %q (%v), want %q", sig, line, err, want)
			}
		}
		expect("ready")
		cmd.Process.Signal(sig)
		expect("cancelled")
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("%v: second signal: child ended with %v", sig, err)
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: second signal: child ended with %v, want killed by %v", sig, err, sig)
		}
	}
}
