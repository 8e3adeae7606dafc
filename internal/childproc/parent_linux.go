package childproc

import (
	"os/exec"
	"runtime"
	"syscall"
)

// setDeathSignal asks the kernel to SIGKILL the child when its parent
// (the forking thread, see Start) ends.
func setDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// forkRequest is one cmd.Start for the forking thread.
type forkRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// forks is served by the forking goroutine, started on first use.
var forks = func() chan forkRequest {
	c := make(chan forkRequest)
	go func() {
		// Never unlocked and never returns: the thread lives as long as
		// the process, so the children's parent-death signal fires only
		// when the process ends.
		runtime.LockOSThread()
		for r := range c {
			r.done <- r.cmd.Start()
		}
	}()
	return c
}()

// start runs cmd.Start on the forking thread.
func start(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	forks <- forkRequest{cmd, done}
	return <-done
}

// watchParent does nothing on Linux: the parent-death signal ends the
// child.
func watchParent() {}
