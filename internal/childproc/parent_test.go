//go:build unix

package childproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testRoles are the children of this package's tests.
var testRoles = map[string]Role{
	// spin says it runs, then burns CPU until killed, as a hung decoder
	// does.
	"spin": func(string) error {
		fmt.Println("spinning")
		for x := uint64(1); ; x = x*6364136223846793005 + 1 {
			if x == 0 {
				return errors.New("unreachable")
			}
		}
	},
	// parent starts a spin child and, once it spins (past Main's check of
	// its parent), prints its process ID and waits.
	"parent": func(string) error {
		cmd, err := Command(context.Background(), "", "spin", "")
		if err != nil {
			return err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := Start(cmd); err != nil {
			return err
		}
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			return err
		}
		fmt.Println(cmd.Process.Pid)
		return cmd.Wait()
	},
}

func TestMain(m *testing.M) {
	if status, ok := Main(testRoles, os.Stderr); ok {
		os.Exit(status)
	}
	os.Exit(m.Run())
}

// alive reports whether process pid exists and is not a zombie (one that
// died and waits for its new parent to reap it counts as gone).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) && !strings.Contains(err.Error(), "no such process")
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// TestChildDiesWithParent SIGKILLs a child that has started a spinning
// grandchild and checks that the grandchild is gone too (before, it kept a
// CPU busy after the harness was killed).
func TestChildDiesWithParent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	parent, err := Command(ctx, "", "parent", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	parent.Stderr = os.Stderr
	if err := Start(parent); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		parent.Process.Kill()
		t.Fatalf("reading the grandchild's pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	if !alive(pid) {
		t.Fatalf("grandchild %d is not running before its parent is killed", pid)
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	// The kernel (or, off Linux, the grandchild's own poll) ends it soon;
	// the deadline is only there to end the test if it never does.
	deadline := time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("grandchild %d still running 20 s after its parent was SIGKILLed", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
