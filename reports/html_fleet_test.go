package reports

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("HTML for a workload", func() {
	It("draws per strategy the requests in flight and the 429 and 529 answers, not a mark per attempt", func() {
		out := renderHTML(fleetReport(), fleetOptions())
		Expect(strings.Count(out, `<svg class="timeline fleet"`)).To(Equal(1))
		Expect(markX.FindAllString(out, -1)).To(BeEmpty())
		Expect(strings.Count(out, `<path class="in-flight"`)).To(Equal(2))
		// blind: 429s at 0s (2), 1s and 3s (2), a 529 at 1s; classify: 429s at 0s (2) and 6s.
		Expect(strings.Count(out, `<rect class="refusal s429"`)).To(Equal(5))
		Expect(strings.Count(out, `<rect class="refusal s529"`)).To(Equal(1))
		Expect(out).To(ContainSubstring("<title>2 attempts answered 429 at 0s</title>"))
		Expect(out).To(ContainSubstring("<title>1 attempt answered 529 at 1s</title>"))
		// classify's answers take 3 s each: two from 0s, one from 6s, one from 12s.
		Expect(out).To(ContainSubstring("<title>2 in flight from 0s to 3s</title>"))
		Expect(out).To(ContainSubstring("<title>1 in flight from 12s to 15s</title>"))
		Expect(out).To(ContainSubstring(">peak 2 in flight</text>"))
	})

	It("counts a request that ends at an instant out before one that starts then", func() {
		steps := inFlight([]flight{{0, 3_000}, {3_000, 6_000}, {1_000, 3_000}})
		Expect(steps).To(Equal([]step{{0, 1}, {1_000, 2}, {3_000, 1}, {6_000, 0}}))
	})
})
