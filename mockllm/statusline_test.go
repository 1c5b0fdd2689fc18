package mockllm_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the status line", func() {
	var (
		srv  *mockllm.Server
		conn net.Conn
	)
	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario(rule(scenario.When{Attempt: 1}, status(529)))}, clock.NewVirtual())
		ep, _ := live(srv)
		var err error
		conn, err = net.Dial("tcp", ep.Addr)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(conn.Close)
		// Bounded: every read below ends by this deadline.
		Expect(conn.SetDeadline(time.Now().Add(10 * time.Second))).To(Succeed())
	})
	request := func(header string) string {
		body := ask("sonnet", 100, 10)
		return "POST /sc/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + header + "Content-Length: " +
			strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}

	It("reads 529 Overloaded, as the real API's, with the whole error body, and keeps the connection for the requests behind it", func() {
		// Two requests pipelined: the 529 must not drop the second.
		_, err := io.WriteString(conn, request("")+request(""))
		Expect(err).NotTo(HaveOccurred())
		br := bufio.NewReader(conn)
		line, err := br.Peek(len("HTTP/1.1 529 Overloaded\r\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(Equal("HTTP/1.1 529 Overloaded\r\n"))
		resp, err := http.ReadResponse(br, nil)
		Expect(err).NotTo(HaveOccurred())
		payload, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("X-Should-Retry")).To(Equal("true"))
		Expect(resp.Header.Get("Request-Id")).To(HavePrefix("req_"))
		Expect(resp.Close).To(BeFalse())
		Expect(string(payload)).To(HavePrefix(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}`))

		second, err := http.ReadResponse(br, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(second.StatusCode).To(Equal(http.StatusOK))
		Expect(io.ReadAll(second.Body)).To(ContainSubstring(`"type":"message"`))
		Expect(srv.Journal()).To(HaveLen(2))
		Expect(srv.Journal()[0].Status).To(Equal(529))
	})

	It("closes the connection after the 529 when the client asks for that", func() {
		_, err := io.WriteString(conn, request("Connection: close\r\n"))
		Expect(err).NotTo(HaveOccurred())
		raw, err := io.ReadAll(conn)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(raw)).To(And(HavePrefix("HTTP/1.1 529 Overloaded\r\n"), ContainSubstring("Connection: close\r\n")))
	})
})
