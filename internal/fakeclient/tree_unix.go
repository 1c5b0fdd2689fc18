//go:build unix

package fakeclient

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// PIDFile names the file into which the daemon policies write the pid
// of their child.
const PIDFile = "FAULTBENCH_FAKE_PIDFILE"

// tree runs the policies that test whether grade ends a client's whole
// tree, and says whether policy was one of them:
//
//   - daemon: starts a child that calls setsid (a session and process
//     group of its own, as a daemon does), prints "daemon PID", writes
//     PID into the file PIDFile names (if it names one), and exits 0
//     without a request.
//   - daemon-hang: the same, then hangs until it is killed.
//   - sleeper: the daemon itself: sleeps a minute.
func tree(policy string) (int, bool) {
	switch policy {
	case "sleeper":
		time.Sleep(time.Minute)
		return 0, true
	case "daemon", "daemon-hang":
	default:
		return 0, false
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), Env+"=sleeper")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "daemon:", err)
		return 1, true
	}
	fmt.Printf("daemon %d\n", cmd.Process.Pid)
	if f := os.Getenv(PIDFile); f != "" {
		_ = os.WriteFile(f, []byte(fmt.Sprint(cmd.Process.Pid)), 0o644)
	}
	if policy == "daemon-hang" {
		time.Sleep(time.Minute)
	}
	return 0, true
}
