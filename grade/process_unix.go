//go:build unix

package grade

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that killGroup
// ends its children too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group, if it started.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
