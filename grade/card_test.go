package grade_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the Markdown card", func() {
	It("escapes what the client sent, as the reports escape it: no HTML, image, mention or comment gets through", func() {
		hostile := "x<!-- @alice ![p](http://evil.example/p.png) <img src=x> *bold* | [l](http://e)"
		sc := &scenario.Scenario{Name: "s", Grade: []string{"fallback"}, Turn: scenario.Turn{Model: "primary"},
			Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
		run := grade.Run{Scenario: sc, Exit: 1, Entries: []mockllm.Entry{
			{N: 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1},
			{N: 2, Model: hostile, Status: 529, Kind: "overloaded", Rule: 1, GapMS: 10},
		}}
		var buf bytes.Buffer
		Expect(grade.WriteMarkdown(&buf, grade.NewCard([]string{"c"}, []grade.Run{run}, grade.Bounds{}))).To(Succeed())
		md := buf.String()
		Expect(md).To(ContainSubstring("x&lt;\\!--")) // the model name is there, escaped, in the evidence and the models column
		for _, raw := range []string{"<!--", "@alice", "![", "<img", "*bold*", "[l]", "| [l]"} {
			Expect(md).NotTo(ContainSubstring(raw))
		}
		Expect(strings.Count(md, "x&lt;\\!--")).To(Equal(2))
	})
})
