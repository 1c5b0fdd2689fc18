package mockllm_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/within"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// TestStressPromisedBodies is the figure of docs/security.md: with serve's
// limits, 150 connections that declare a 32 MB body and send one byte
// leave the server small and answering. It takes a few seconds, so it runs
// only when asked:
//
//	FAULTBENCH_STRESS=1 go test -run StressPromisedBodies -v ./mockllm/
func TestStressPromisedBodies(t *testing.T) {
	if os.Getenv("FAULTBENCH_STRESS") == "" {
		t.Skip("set FAULTBENCH_STRESS=1 to run")
	}
	const conns = 150
	srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.Real{})
	var entered sync.WaitGroup
	entered.Add(conns)
	var once sync.Map
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("X-Stress"); id != "" {
			if _, loaded := once.LoadOrStore(id, true); !loaded {
				entered.Done()
			}
		}
		srv.ServeHTTP(w, r)
	})
	ep, err := mockllm.StartLimited(h, "127.0.0.1:0", mockllm.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			_ = c.Close()
		}
	}()
	for i := range conns {
		c, err := net.Dial("tcp", ep.Addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		fmt.Fprintf(c, "POST /%s/v1/messages HTTP/1.1\r\nHost: x\r\nX-Stress: %d\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{",
			scName, i, 32<<20)
	}
	all := make(chan struct{})
	go func() { entered.Wait(); close(all) }()
	within.Recv(t, all, "every handler reading its body") // bounded: a handler that never came fails the test
	runtime.GC()
	rss := vmRSS(t)
	resp, err := http.Post(ep.BaseURL(scName)+"v1/messages", "application/json",
		strings.NewReader(`{"model":"sonnet","max_tokens":30,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	t.Logf("%d connections promising 32 MB each: RSS %d MiB; another request answered %d", conns, rss>>20, resp.StatusCode)
	if resp.StatusCode != http.StatusOK || rss > 200<<20 {
		t.Fatalf("RSS %d MiB (ceiling 200), status %d", rss>>20, resp.StatusCode)
	}
}

// vmRSS is the process's resident set size, from /proc.
func vmRSS(t *testing.T) int64 { return procStatus(t, "VmRSS:") }

// procStatus reads a size in kB from /proc/self/status, in bytes.
func procStatus(t *testing.T, key string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc here")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			var kb int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			return kb << 10
		}
	}
	t.Skip("no " + key)
	return 0
}

// TestStressLongSession is the journal's figure in docs/security.md:
// 300,000 requests in one session, then the journal read whole, keep the
// server's memory bounded. It runs only when asked:
//
//	FAULTBENCH_STRESS=1 go test -run StressLongSession -v ./mockllm/
func TestStressLongSession(t *testing.T) {
	if os.Getenv("FAULTBENCH_STRESS") == "" {
		t.Skip("set FAULTBENCH_STRESS=1 to run")
	}
	const requests = 300_000
	srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
	model := strings.Repeat("m", 4096) // clipped to 256 bytes in the journal
	body := `{"model":"` + model + `","max_tokens":30,"messages":[{"role":"user","content":"hi"}]}`
	for range requests {
		r, _ := http.NewRequest("POST", "/"+scName+"/v1/messages", strings.NewReader(body))
		srv.ServeHTTP(discard{}, r)
	}
	runtime.GC()
	rss := vmRSS(t)
	r, _ := http.NewRequest("GET", mockllm.JournalPath, nil)
	w := &countingWriter{header: http.Header{}}
	srv.ServeHTTP(w, r)
	after := procStatus(t, "VmHWM:")
	t.Logf("%d requests in one session: RSS %d MiB; journal of %d MB written, peak RSS %d MiB; dropped %s",
		requests, rss>>20, w.n>>20, after>>20, w.header.Get(mockllm.DroppedHeader))
	if rss > 300<<20 || after > 300<<20 {
		t.Fatalf("RSS %d MiB, peak %d MiB (ceiling 300)", rss>>20, after>>20)
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}

// countingWriter counts what is written.
type countingWriter struct {
	header http.Header
	n      int
}

func (c *countingWriter) Header() http.Header { return c.header }
func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return len(p), nil
}
func (c *countingWriter) WriteHeader(int) {}
