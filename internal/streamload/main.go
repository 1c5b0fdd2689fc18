package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	bin := flag.String("bin", "faultbench", "the faultbench binary")
	dir := flag.String("scenarios", "cmd/faultbench/testdata/ceilings", "the folder serve loads")
	path := flag.String("path", "/big-stream-answer/v1/messages", "the route each connection posts to")
	body := flag.String("body", `{"model":"big","max_tokens":1000000,"stream":true,"messages":[{"role":"user","content":"hi"}]}`, "the request body")
	conns := flag.Int("conns", 256, "connections open at once")
	readers := flag.Int("readers", 128, "of them, how many read their answer to its end")
	settle := flag.Duration("settle", 20*time.Second, "the longest wait for serve's memory to come back once the streams close")
	flag.Parse()
	if err := run(*bin, *dir, *path, *body, *conns, *readers, *settle); err != nil {
		fmt.Fprintln(os.Stderr, "streamload:", err)
		os.Exit(1)
	}
}

var addrRE = regexp.MustCompile(`on http://(127\.0\.0\.1:[0-9]+)`)

func run(bin, dir, path, body string, conns, readers int, settle time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start serve: %w", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	addr, err := serveAddr(stderr)
	if err != nil {
		return err
	}
	pid := cmd.Process.Pid
	req := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAnthropic-Version: 2023-06-01\r\nX-Api-Key: k\r\nAuthorization: Bearer k\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", path, addr, len(body), body)

	// One stream read whole first, so that idle is serve after its first
	// answer, its code paged in.
	n, err := stream(addr, req)
	if err != nil {
		return fmt.Errorf("first stream: %w", err)
	}
	time.Sleep(2 * time.Second)
	idle, _ := rss(pid)
	fmt.Printf("answer: %d bytes; idle RSS: %d MiB\n", n, idle>>20)

	start := time.Now()
	var wg sync.WaitGroup
	held := make(chan net.Conn, conns)
	errs := make(chan error, conns)
	for i := range conns {
		wg.Add(1)
		go func(read bool) {
			defer wg.Done()
			if read {
				if _, err := stream(addr, req); err != nil {
					errs <- err
				}
				return
			}
			c, err := send(addr, req)
			if err != nil {
				errs <- err
				return
			}
			held <- c
		}(i < readers)
	}
	peak := int64(0)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(50 * time.Millisecond)
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r, err := rss(pid); err == nil {
			peak = max(peak, r)
		}
	}
	// The never-reading clients hold their streams a few seconds more, at
	// the peak of what serve buffers for them.
	for range 20 {
		<-tick.C
		if r, err := rss(pid); err == nil {
			peak = max(peak, r)
		}
	}
	hwm, _ := status(pid, "VmHWM:")
	close(held)
	for c := range held {
		_ = c.Close()
	}
	close(errs)
	failed := 0
	for err := range errs {
		failed++
		if failed == 1 {
			fmt.Println("first error:", err)
		}
	}
	fmt.Printf("%d streams (%d read to the end, %d never read), %d failed, in %s: peak RSS %d MiB (VmHWM %d MiB)\n",
		conns, readers, conns-readers, failed, time.Since(start).Round(time.Millisecond), peak>>20, hwm>>20)
	end := time.Now().Add(settle)
	after := int64(0)
	for time.Now().Before(end) {
		time.Sleep(500 * time.Millisecond)
		after, _ = rss(pid)
		if after <= idle+idle/5 {
			break
		}
	}
	fmt.Printf("after they closed: %d MiB, %s later\n", after>>20, time.Since(end.Add(-settle)).Round(100*time.Millisecond))
	return nil
}

// serveAddr reads serve's stderr up to the line that says where it
// listens, then drains the rest.
func serveAddr(r io.Reader) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
			go func() { _, _ = io.Copy(io.Discard, r) }()
			return m[1], nil
		}
	}
	return "", errors.New("serve printed no address")
}

// send opens a connection and sends req on it.
func send(addr, req string) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	_ = c.SetDeadline(time.Now().Add(2 * time.Minute))
	if _, err := io.WriteString(c, req); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// stream sends req and reads the answer to its end (serve closes the
// connection after it: Connection: close).
func stream(addr, req string) (int64, error) {
	c, err := send(addr, req)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	n, err := io.Copy(io.Discard, c)
	if err == nil && n < 1<<20 {
		err = fmt.Errorf("only %d bytes", n)
	}
	return n, err
}

// rss is a process's resident memory in bytes.
func rss(pid int) (int64, error) { return status(pid, "VmRSS:") }

// status reads a figure in kB from /proc/PID/status.
func status(pid int, key string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", key, pid)
}
