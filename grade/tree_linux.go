//go:build linux

package grade

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER (linux/prctl.h).
const prSetChildSubreaper = 36

var adoptOnce sync.Once

// adopt makes this process a child subreaper, once: a descendant of a
// client whose parent exits — a daemon that called setsid, say — is then
// reparented here rather than to init, so that endTree can reap it once
// killed. The setting lasts as long as the process.
func adopt() {
	adoptOnce.Do(func() {
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}

// treeWait bounds how long endTree waits for the processes it killed to
// be gone.
const treeWait = 2 * time.Second

// endTree kills every process that carries marker in its environment —
// the client's descendants, in its process group or not, that are still
// alive — and reaps those that were reparented to this process; root,
// the client itself, is left to its exec.Cmd's Wait. It returns when
// none is left, or after treeWait. A descendant that replaced its whole
// environment and left the process group escapes it (docs/grade.md).
func endTree(root int, marker string) {
	self := os.Getpid()
	killed := map[int]bool{}
	deadline := time.Now().Add(treeWait)
	for {
		procs := processes()
		fresh := 0
		for pid, p := range procs {
			if pid == root || pid == self || killed[pid] || p.zombie || !marked(pid, marker) {
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
			killed[pid] = true
			fresh++
		}
		for pid := range killed {
			p, alive := procs[pid]
			if alive && p.ppid == self {
				var ws syscall.WaitStatus
				if n, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); n == pid || err == syscall.ECHILD {
					alive = false
				}
			}
			if !alive {
				delete(killed, pid)
			}
		}
		if (len(killed) == 0 && fresh == 0) || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// proc is what endTree needs of a process: its parent, and whether it is
// a zombie (dead, not yet reaped).
type proc struct {
	ppid   int
	zombie bool
}

// processes are the processes /proc lists now.
func processes() map[int]proc {
	out := map[int]proc{}
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, d := range dir {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out[pid] = proc{ppid: ppid, zombie: f[0] == "Z" || f[0] == "X"}
	}
	return out
}

// marked says whether pid's environment holds the entry marker.
func marked(pid int, marker string) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if string(kv) == marker {
			return true
		}
	}
	return false
}
