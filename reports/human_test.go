package reports

import (
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("formatting for people", func() {
	DescribeTable("waits",
		func(ms int64, want string) { Expect(formatWait(ms)).To(Equal(want)) },
		Entry("nothing", int64(0), "0s"),
		Entry("under a second, exact", int64(250), "250ms"),
		Entry("just under a second", int64(999), "999ms"),
		Entry("one second", int64(1_000), "1s"),
		Entry("a second and a half", int64(1_500), "1.5s"),
		Entry("jitter rounds to a tenth", int64(1_137), "1.1s"),
		Entry("blind's 1+2+4+8+16", int64(31_000), "31s"),
		Entry("rounds up into the next minute", int64(59_960), "1m"),
		Entry("whole minutes", int64(120_000), "2m"),
		Entry("minutes and seconds", int64(124_000), "2m4s"),
		Entry("minutes round to the second", int64(124_400), "2m4s"),
		Entry("an hour", int64(3_600_000), "1h"),
		Entry("an hour and seconds keeps the minutes", int64(3_605_000), "1h0m5s"),
		Entry("negative, which a ledger should never hold", int64(-1_500), "-1.5s"),
		Entry("the most negative int64, which used to recurse until the stack overflowed", int64(math.MinInt64), "-2562047788015h12m56s"),
		Entry("the largest int64, past what a time.Duration holds", int64(math.MaxInt64), "2562047788015h12m56s"),
		Entry("past a time.Duration's 292 years", int64(10_000_000_000_000), "2777777h46m40s"),
	)

	DescribeTable("counts",
		func(n int64, want string) { Expect(formatInt(n)).To(Equal(want)) },
		Entry("zero", int64(0), "0"),
		Entry("three digits", int64(999), "999"),
		Entry("four digits", int64(1_000), "1,000"),
		Entry("the spec's input", int64(104_000), "104,000"),
		Entry("millions", int64(1_050_000), "1,050,000"),
		Entry("seven digits, short head", int64(1_234_567), "1,234,567"),
		Entry("negative", int64(-1_234_567), "-1,234,567"),
		Entry("negative, short", int64(-12), "-12"),
	)

	DescribeTable("ratios",
		func(num, den int64, want string) { Expect(formatRatio(num, den)).To(Equal(want)) },
		Entry("a plain ratio", int64(32), int64(10), "3.2x"),
		Entry("rounded to one decimal", int64(62_000), int64(5_000), "12.4x"),
		Entry("equal", int64(7), int64(7), "1.0x"),
		Entry("zero over something: no ratio", int64(0), int64(180_000), "-"),
		Entry("small: two significant digits, never 0.0x", int64(1), int64(32), "0.031x"),
		Entry("just under a tenth", int64(99), int64(1_000), "0.1x"),
		Entry("over zero", int64(31_000), int64(0), "-"),
		Entry("zero over zero", int64(0), int64(0), "-"),
	)

	It("wraps descriptions at word boundaries within the width", func() {
		text := strings.Repeat("retry after backoff ", 20)
		lines := wrapText(text, DescriptionWidth)
		Expect(len(lines)).To(BeNumerically(">", 1))
		for _, l := range lines {
			Expect(len(l)).To(BeNumerically("<=", DescriptionWidth))
			Expect(l).NotTo(HavePrefix(" "))
			Expect(l).NotTo(HaveSuffix(" "))
		}
		Expect(strings.Join(lines, " ")).To(Equal(strings.TrimSpace(text)))
	})

	It("gives a word longer than the width a line of its own", func() {
		long := strings.Repeat("x", 90)
		Expect(wrapText("a "+long+" b", 78)).To(Equal([]string{"a", long, "b"}))
	})

	It("counts characters, not bytes", func() {
		word := strings.Repeat("é", 10) // 20 bytes, 10 characters
		Expect(wrapText(word+" "+word, 21)).To(Equal([]string{word + " " + word}))
	})

	It("has no lines for no description", func() {
		Expect(wrapText("", 78)).To(BeEmpty())
		Expect(wrapText(" \n\t ", 78)).To(BeEmpty())
	})
})
