package reports

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Write", func() {
	It("lists the formats this build renders", func() {
		Expect(Formats()).To(Equal([]string{"table", "markdown", "json", "csv", "junit", "html", "baseline"}))
	})

	It("hands out a list the caller may change", func() {
		Formats()[0] = "changed"
		Expect(Formats()[0]).To(Equal("table"))
	})

	DescribeTable("renders each format as its own function does",
		func(format string, direct func(*bytes.Buffer) error) {
			var viaWrite, want bytes.Buffer
			Expect(Write(&viaWrite, format, fixtureReport(), Options{Descriptions: fixtureDescriptions})).To(Succeed())
			Expect(direct(&want)).To(Succeed())
			Expect(viaWrite.String()).To(Equal(want.String()))
		},
		Entry("table", FormatTable, func(b *bytes.Buffer) error {
			return Table(b, fixtureReport(), Options{Descriptions: fixtureDescriptions})
		}),
		Entry("markdown", FormatMarkdown, func(b *bytes.Buffer) error {
			return Markdown(b, fixtureReport(), Options{Descriptions: fixtureDescriptions})
		}),
		Entry("json", FormatJSON, func(b *bytes.Buffer) error { return JSON(b, fixtureReport()) }),
		Entry("csv", FormatCSV, func(b *bytes.Buffer) error {
			return CSV(b, fixtureReport(), Options{Descriptions: fixtureDescriptions})
		}),
		Entry("junit", FormatJUnit, func(b *bytes.Buffer) error {
			return JUnit(b, fixtureReport(), Options{Descriptions: fixtureDescriptions})
		}),
		Entry("html", FormatHTML, func(b *bytes.Buffer) error {
			return HTML(b, fixtureReport(), Options{Descriptions: fixtureDescriptions})
		}),
	)

	It("writes JSON with the shard when the options carry one", func() {
		var viaWrite, want bytes.Buffer
		shard := &Shard{Index: 2, Count: 2, First: 2, Jobs: 4}
		Expect(Write(&viaWrite, FormatJSON, fixtureReport(), Options{Shard: shard})).To(Succeed())
		Expect(ShardJSON(&want, fixtureReport(), *shard)).To(Succeed())
		Expect(viaWrite.String()).To(Equal(want.String()))
	})

	DescribeTable("refuses a format it does not know, writing nothing",
		func(format string) {
			var buf bytes.Buffer
			err := Write(&buf, format, fixtureReport(), Options{})
			Expect(err).To(MatchError(ErrUnknownFormat))
			Expect(err.Error()).To(ContainSubstring("table, markdown, json, csv, junit, html"))
			Expect(buf.Len()).To(BeZero())
		},
		Entry("a format we do not render", "xml"),
		Entry("a typo", "jsno"),
		Entry("upper case", "JSON"),
		Entry("empty", ""),
	)
})
