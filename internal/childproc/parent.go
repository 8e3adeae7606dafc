package childproc

import (
	"os"
	"os/exec"
	"strconv"
)

// ParentEnv is the environment variable in which Command passes the
// parent's process ID to the child, so that a child whose parent is gone
// (Main checks at start, and on systems without a parent-death signal
// keeps checking) exits instead of running on unobserved.
const ParentEnv = "SERBENCH_CHILD_PARENT"

// A child dies with its parent, however the parent ends (even by
// SIGKILL, which runs no clean-up in the parent):
//
//   - On Linux, Command sets the parent-death signal (SysProcAttr.Pdeathsig,
//     prctl PR_SET_PDEATHSIG) to SIGKILL. The kernel sends it when the OS
//     thread that forked the child exits, not the process, and the Go
//     runtime ends threads (a goroutine that exits while locked to its
//     thread, as bench's core-sharing probe does, takes the thread with it),
//     so Start forks every child from one goroutine locked to its thread
//     for the life of the process.
//   - Elsewhere on Unix, the child polls its parent's process ID every
//     parentPoll and exits when it changes (the parent died and the child
//     was handed to another process).
//   - In both, Main exits at once when the parent named in ParentEnv is no
//     longer the parent: the parent died between starting the child and
//     the signal being armed.
//
// On Windows none of this applies: a child outlives a parent killed
// outright, and ends at its own time limit.

// Start starts cmd, made by Command, so that the child dies with this
// process (see above). Use it in place of cmd.Start.
func Start(cmd *exec.Cmd) error {
	return start(cmd)
}

// parentEnv returns the ParentEnv entry for a child of this process.
func parentEnv() string {
	return ParentEnv + "=" + strconv.Itoa(os.Getpid())
}

// parentGone reports whether this process was started by Command and its
// parent is no longer the process that started it.
func parentGone() bool {
	want, ok := os.LookupEnv(ParentEnv)
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(want)
	return err == nil && os.Getppid() != pid
}
