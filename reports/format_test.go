package reports

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Write", func() {
	It("lists the formats this build renders", func() {
		Expect(Formats()).To(Equal([]string{"table", "json"}))
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
		Entry("json", FormatJSON, func(b *bytes.Buffer) error { return JSON(b, fixtureReport()) }),
	)

	DescribeTable("refuses a format it does not know, writing nothing",
		func(format string) {
			var buf bytes.Buffer
			err := Write(&buf, format, fixtureReport(), Options{})
			Expect(err).To(MatchError(ErrUnknownFormat))
			Expect(err.Error()).To(ContainSubstring("table, json"))
			Expect(buf.Len()).To(BeZero())
		},
		Entry("a later format", "junit"),
		Entry("a typo", "jsno"),
		Entry("upper case", "JSON"),
		Entry("empty", ""),
	)
})
