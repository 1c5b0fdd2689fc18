package reports

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// expectGolden compares got with testdata/name, or rewrites the file when
// the suite runs with -update.
func expectGolden(name string, got []byte) {
	GinkgoHelper()
	path := filepath.Join("testdata", name)
	if *update {
		Expect(os.WriteFile(path, got, 0o644)).To(Succeed())
		return
	}
	want, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred(), "missing golden file; run go test ./reports -update")
	Expect(string(got)).To(Equal(string(want)), "output differs from %s; if intended, run go test ./reports -update", path)
}

var _ = Describe("golden output", func() {
	It("renders the fixture as tables", func() {
		var buf bytes.Buffer
		Expect(Table(&buf, fixtureReport(), Options{Descriptions: fixtureDescriptions})).To(Succeed())
		expectGolden("report.table.golden", buf.Bytes())
	})

	DescribeTable("renders the fixture with broken budgets and a baseline",
		func(format, golden string) {
			var buf bytes.Buffer
			Expect(Write(&buf, format, fixtureReport(), verdictOptions())).To(Succeed())
			expectGolden(golden, buf.Bytes())
		},
		Entry("as tables", FormatTable, "verdict.table.golden"),
		Entry("as Markdown", FormatMarkdown, "verdict.md.golden"),
		Entry("as CSV", FormatCSV, "verdict.csv.golden"),
		Entry("as JUnit XML", FormatJUnit, "verdict.junit.xml.golden"),
		Entry("as HTML", FormatHTML, "verdict.html.golden"),
	)

	DescribeTable("renders a fleet's figures",
		func(format, golden string) {
			var buf bytes.Buffer
			Expect(Write(&buf, format, fleetReport(), fleetOptions())).To(Succeed())
			expectGolden(golden, buf.Bytes())
		},
		Entry("as tables", FormatTable, "fleet.table.golden"),
		Entry("as Markdown", FormatMarkdown, "fleet.md.golden"),
		Entry("as CSV", FormatCSV, "fleet.csv.golden"),
		Entry("as JUnit XML", FormatJUnit, "fleet.junit.xml.golden"),
		Entry("as HTML", FormatHTML, "fleet.html.golden"),
		Entry("as JSON", FormatJSON, "fleet.json.golden"),
	)

	DescribeTable("renders a priced scenario's cost",
		func(format, golden string) {
			var buf bytes.Buffer
			Expect(Write(&buf, format, pricedReport(), Options{Descriptions: fixtureDescriptions})).To(Succeed())
			expectGolden(golden, buf.Bytes())
		},
		Entry("as tables", FormatTable, "priced.table.golden"),
		Entry("as Markdown", FormatMarkdown, "priced.md.golden"),
		Entry("as CSV", FormatCSV, "priced.csv.golden"),
		Entry("as JUnit XML", FormatJUnit, "priced.junit.xml.golden"),
		Entry("as HTML", FormatHTML, "priced.html.golden"),
	)

	It("renders the fixture as JSON", func() {
		var buf bytes.Buffer
		Expect(JSON(&buf, fixtureReport())).To(Succeed())
		expectGolden("report.json.golden", buf.Bytes())
	})
})
