package grade

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// MarkerVar is the variable that marks each client process and its
// descendants, which inherit it: its value names one run of one
// scenario, so that grade finds and ends the whole tree of that client
// and nothing else.
const MarkerVar = "FAULTBENCH_GRADE_RUN"

// spawned numbers the processes this process starts, for their markers.
var spawned atomic.Int64

// outputTail is how much of a client's output a run keeps: its last 4 KiB.
const outputTail = 4 << 10

// process is how one client process ended.
type process struct {
	exit     int
	timedOut bool
	output   string
	err      error
}

// runProcess runs argv with env in its own process group, and kills the
// group when timeout passes or ctx ends. Whichever way it ends, every
// descendant still alive — in the group or one that left it with setsid
// or setpgid — is killed after it (endTree, by the marker in its
// environment), and reaped when it was reparented here (adopt).
func runProcess(ctx context.Context, argv, env []string, dir string, timeout time.Duration) process {
	adopt()
	marker := MarkerVar + "=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(spawned.Add(1), 10)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = append(env[:len(env):len(env)], marker), dir
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	ownGroup(cmd)
	// A grandchild that keeps the output pipe open past the kill does not
	// hold the run: after the group is killed, Wait gives up on the pipes.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return process{exit: -1, err: err}
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var p process
	var err error
	select {
	case err = <-waited:
	case <-timer.C:
		p.timedOut = true
		killGroup(cmd)
		err = <-waited
	case <-ctx.Done():
		killGroup(cmd)
		err = <-waited
	}
	// The client's children may outlive it: end the group, and every
	// descendant that left it, in any case.
	killGroup(cmd)
	endTree(cmd.Process.Pid, marker)
	p.output = out.String()
	var ee *exec.ExitError
	switch {
	case err == nil:
		p.exit = 0
	case errors.As(err, &ee):
		p.exit = ee.ExitCode() // -1 for a signal
	default:
		p.exit, p.err = -1, err
	}
	return p
}

// tail keeps the last outputTail bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*outputTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-outputTail:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > outputTail {
		b = b[len(b)-outputTail:]
	}
	return string(b)
}
