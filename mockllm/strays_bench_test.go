package mockllm_test

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm"
)

// BenchmarkStrays sends 1,000 requests with 300 KB paths that reach no
// scenario to a mock on loopback with serve's limits, then reads the
// journal once, and reports what the process holds after it (heap-MiB:
// the heap in use after a collection, the strays' journal included) and
// the most it asked the system for (sys-MiB), which bounds serve's RSS:
// the journal keeps a clipped copy of each path, so both stay far under
// 200 MiB.
func BenchmarkStrays(b *testing.B) {
	long := strings.Repeat("x", 300<<10)
	for b.Loop() {
		srv := mockllm.New(nil, mockllm.RealClock{})
		ep, err := mockllm.StartLimited(srv, "127.0.0.1:0", mockllm.DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		client := &http.Client{Transport: &http.Transport{Proxy: nil}}
		for i := range 1000 {
			resp, err := client.Post("http://"+ep.Addr+"/"+long+"/"+string(rune('a'+i%26))+"/v1/messages", "application/json", strings.NewReader("{}"))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound {
				b.Fatalf("status %d, want 404", resp.StatusCode)
			}
		}
		resp, err := client.Get("http://" + ep.Addr + mockllm.JournalPath)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
		b.ReportMetric(float64(n)/1000, "journal-B/stray")
		if len(srv.Journal()) != 1000 {
			b.Fatalf("%d strays journalled, want 1000", len(srv.Journal()))
		}
		client.CloseIdleConnections()
		if err := ep.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
