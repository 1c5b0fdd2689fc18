package mockllm_test

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the status line", func() {
	It("reads 529 Overloaded, as the real API's, with the whole error body", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario(rule(scenario.When{Attempt: 1}, status(529)))}, clock.NewVirtual())
		ep, _ := live(srv)
		conn, err := net.Dial("tcp", ep.Addr)
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		// Bounded: a mock that wrote the answer through net/http would keep
		// the connection open, and the read below would never end.
		Expect(conn.SetDeadline(time.Now().Add(10 * time.Second))).To(Succeed())
		body := ask("sonnet", 100, 10)
		_, err = io.WriteString(conn, "POST /sc/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "+
			strconv.Itoa(len(body))+"\r\n\r\n"+body)
		Expect(err).NotTo(HaveOccurred())
		raw, err := io.ReadAll(bufio.NewReader(conn))
		Expect(err).NotTo(HaveOccurred())
		head, payload, _ := strings.Cut(string(raw), "\r\n\r\n")
		Expect(head).To(HavePrefix("HTTP/1.1 529 Overloaded\r\n"))
		Expect(head).To(ContainSubstring("X-Should-Retry: true"))
		Expect(head).To(ContainSubstring("Request-Id: req_"))
		Expect(payload).To(HavePrefix(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}`))
		Expect(srv.Journal()[0].Status).To(Equal(529))
	})
})
