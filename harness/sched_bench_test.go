package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// BenchmarkSched is the scheduler alone: turns that each sleep four times
// (as an attempt that waits for its answer, a retry-after and its second
// answer does), at concurrency 100, no HTTP. sched-µs/event is the cost of
// one hand-over from a turn that parks to the next one, goroutine switch
// and heap included.
func BenchmarkSched(b *testing.B) {
	for _, turns := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			const sleeps = 4
			for b.Loop() {
				var s *sched
				s = newSched(turns, 100, func(int) time.Time { return clock.Epoch }, func(k int) {
					for i := range sleeps {
						_ = s.Sleep(context.Background(), time.Duration(k%7+i)*time.Millisecond)
					}
				})
				s.Run()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*turns*(sleeps+1)), "sched-µs/event")
		})
	}
}

// BenchmarkLoopbackFloor is what real HTTP on 127.0.0.1 costs at the
// least, with nothing of faultbench: one kept-alive connection, a POST of
// a long turn's body (12 KB) and a small JSON answer, one at a time as a
// workload sends them. It is the floor under wall-µs/attempt of
// BenchmarkWorkload.
func BenchmarkLoopbackFloor(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	answer := bytes.Repeat([]byte("a"), 600)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	body := bytes.Repeat([]byte("b"), 12<<10)
	url := "http://" + ln.Addr().String() + "/v1/messages"
	for b.Loop() {
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N), "http-µs/request")
}
