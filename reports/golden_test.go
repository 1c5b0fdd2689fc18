package reports

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
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

	// Each fixture in every format: the report, the options, the golden
	// file of each format.
	verdict := func() (ledger.Report, Options) { return fixtureReport(), verdictOptions() }
	fleet := func() (ledger.Report, Options) { return fleetReport(), fleetOptions() }
	priced := func() (ledger.Report, Options) {
		return pricedReport(), Options{Descriptions: fixtureDescriptions}
	}
	DescribeTable("renders a fixture",
		func(fixture func() (ledger.Report, Options), format, golden string) {
			var buf bytes.Buffer
			r, opts := fixture()
			Expect(Write(&buf, format, r, opts)).To(Succeed())
			expectGolden(golden, buf.Bytes())
		},
		Entry("with broken budgets and a baseline, as tables", verdict, FormatTable, "verdict.table.golden"),
		Entry("with broken budgets and a baseline, as Markdown", verdict, FormatMarkdown, "verdict.md.golden"),
		Entry("with broken budgets and a baseline, as CSV", verdict, FormatCSV, "verdict.csv.golden"),
		Entry("with broken budgets and a baseline, as JUnit XML", verdict, FormatJUnit, "verdict.junit.xml.golden"),
		Entry("with broken budgets and a baseline, as HTML", verdict, FormatHTML, "verdict.html.golden"),
		Entry("of a fleet, as tables", fleet, FormatTable, "fleet.table.golden"),
		Entry("of a fleet, as Markdown", fleet, FormatMarkdown, "fleet.md.golden"),
		Entry("of a fleet, as CSV", fleet, FormatCSV, "fleet.csv.golden"),
		Entry("of a fleet, as JUnit XML", fleet, FormatJUnit, "fleet.junit.xml.golden"),
		Entry("of a fleet, as HTML", fleet, FormatHTML, "fleet.html.golden"),
		Entry("of a fleet, as JSON", fleet, FormatJSON, "fleet.json.golden"),
		Entry("with a priced scenario's cost, as tables", priced, FormatTable, "priced.table.golden"),
		Entry("with a priced scenario's cost, as Markdown", priced, FormatMarkdown, "priced.md.golden"),
		Entry("with a priced scenario's cost, as CSV", priced, FormatCSV, "priced.csv.golden"),
		Entry("with a priced scenario's cost, as JUnit XML", priced, FormatJUnit, "priced.junit.xml.golden"),
		Entry("with a priced scenario's cost, as HTML", priced, FormatHTML, "priced.html.golden"),
	)

	It("renders the fixture as JSON", func() {
		var buf bytes.Buffer
		Expect(JSON(&buf, fixtureReport())).To(Succeed())
		expectGolden("report.json.golden", buf.Bytes())
	})
})
