package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery/anthropic"
)

// longAnswer streams an answer of n text deltas of 64 bytes each, with a
// tool_use block between two text blocks so that the deltas of several
// blocks are gathered.
func longAnswer(n int) (body, want string) {
	var b strings.Builder
	ev := func(name, data string) { b.WriteString("event: " + name + "\ndata: " + data + "\n\n") }
	ev("message_start", `{"type":"message_start","message":{"id":"msg_l","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}`)
	piece := strings.Repeat("tok ", 16)
	for block := range 2 {
		index := 2 * block
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, index))
		for range n / 2 {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%q}}`, index, piece))
		}
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index))
		if block == 0 {
			ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"read","input":{}}}`)
			ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a\"}"}}`)
			ev("content_block_stop", `{"type":"content_block_stop","index":1}`)
		}
	}
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String(), strings.Repeat(piece, n)
}

var _ = Describe("a long streamed answer", func() {
	// The SDK's Message.Accumulate adds each text delta with +=: 4,096
	// deltas of 64 bytes in two blocks allocated 284 MB. Gathered, the
	// text is copied a few times over, whatever the number of deltas.
	It("is gathered with work that follows its bytes", func() {
		body, want := longAnswer(4096)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, body)
		}))
		DeferCleanup(srv.Close)
		p := anthropic.New(option.WithBaseURL(srv.URL), option.WithAPIKey("k"), option.WithHTTPClient(srv.Client())).WithStream(true)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		resp, err := p.Send(context.Background(), turn())
		runtime.ReadMemStats(&after)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal(want))
		Expect(resp.ToolCalls).To(HaveLen(1))
		Expect(string(resp.ToolCalls[0].Input)).To(Equal(`{"path": "a"}`))
		allocated := after.TotalAlloc - before.TotalAlloc
		Expect(allocated).To(BeNumerically("<", 128<<20), "allocated %d MB for a %d KB answer", allocated>>20, len(want)>>10)
	})
})
