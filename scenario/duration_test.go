package scenario_test

import (
	"time"

	"github.com/goccy/go-yaml"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("Durations", func() {
	// Every case runs through the loader and through goccy/go-yaml's own
	// decoder (Duration.UnmarshalYAML): both must agree.
	DescribeTable("read",
		func(text string, want time.Duration) {
			s, err := scenario.Parse("d.yaml", minimal("script: [{when: {after: "+text+"}, respond: {ok: true}}]\n"))
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Script[0].When.After.D()).To(Equal(want))

			var direct struct{ After scenario.Duration }
			Expect(yaml.Unmarshal([]byte("after: "+text), &direct)).To(Succeed())
			Expect(direct.After.D()).To(Equal(want))
		},
		Entry("seconds", "30s", 30*time.Second),
		Entry("minutes and seconds", "1m30s", 90*time.Second),
		Entry("milliseconds", "500ms", 500*time.Millisecond),
		Entry("zero", "0", time.Duration(0)),
		Entry("a fraction of a second", "1.5s", 1500*time.Millisecond),
		Entry("null", "null", time.Duration(0)),
	)

	DescribeTable("reject",
		func(text, msg string) {
			_, err := scenario.Parse("d.yaml", minimal("script: [{when: {after: "+text+"}, respond: {ok: true}}]\n"))
			Expect(err).To(MatchError(ContainSubstring("script[0].when.after: " + msg)))

			var direct struct{ After scenario.Duration }
			Expect(yaml.Unmarshal([]byte("after: "+text), &direct)).To(MatchError(ContainSubstring(msg)))
		},
		Entry("a negative duration", "-5s", `duration must not be negative, got "-5s"`),
		Entry("negative seconds", "-5", "duration must not be negative, got -5"),
		Entry("a word", "soon", `want a duration such as "30s"`),
		Entry("days", "2d", `want a duration such as "30s"`),
		Entry("too many hours", "3000000h", `want a duration such as "30s"`),
		// A bare number is no duration: the error shows the fix.
		Entry("a bare integer", "30", "30 has no unit: write 30s (or ms, m, h)"),
		Entry("a quoted integer", `"30"`, "30 has no unit: write 30s (or ms, m, h)"),
		Entry("a bare fraction", "1.5", "1.5 has no unit: write 1.5s (or ms, m, h)"),
	)

	It("writes itself as time.Duration does", func() {
		out, err := yaml.Marshal(struct{ After scenario.Duration }{scenario.Duration(90 * time.Second)})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal("after: 1m30s\n"))
	})
})
