//go:build !linux

package childproc

import (
	"os"
	"os/exec"
	"runtime"
	"time"
)

// parentPoll is how often a child checks that its parent is alive where
// there is no parent-death signal.
const parentPoll = 200 * time.Millisecond

// setDeathSignal does nothing: only Linux has a parent-death signal.
func setDeathSignal(cmd *exec.Cmd) {}

// start is cmd.Start.
func start(cmd *exec.Cmd) error { return cmd.Start() }

// watchParent exits the child (status 2) once its parent is gone, polling
// every parentPoll; on Windows, where a process's parent ID does not
// change when the parent dies, it does nothing.
func watchParent() {
	if runtime.GOOS == "windows" {
		return
	}
	go func() {
		for range time.Tick(parentPoll) {
			if parentGone() {
				os.Exit(2)
			}
		}
	}()
}
