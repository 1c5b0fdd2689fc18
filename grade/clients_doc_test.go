package grade_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/scenario"
)

// docs/clients.md is written by clients/grade-real.sh (minutes of real
// time, real clients in a network namespace), so no test can remake it;
// this one holds each card in it to what `faultbench grade` writes for
// the built-in pack today: a finding per check and scenario that names
// it, a run per scenario, and a tally that counts the findings. The cards
// are graded in real time, which leaves out the long scenarios that need
// a warp (grade.Fits). A card
// edited by hand, or measured on an older pack, fails it. And every client
// the script grades (the names of its clients list) has its section, in
// the script's order, with one card and the date, the commit and the real
// time it was measured in: a client added to the script and not measured,
// or one whose grade did not finish, fails it.
var _ = Describe("the reference cards of docs/clients.md", func() {
	It("are cards of the built-in pack, each tally counting its findings", func() {
		doc, err := os.ReadFile("../docs/clients.md")
		Expect(err).NotTo(HaveOccurred())
		all, err := grade.Pack()
		Expect(err).NotTo(HaveOccurred())
		var scs []*scenario.Scenario
		for _, sc := range all {
			if grade.Fits(sc, grade.DefaultTimeout, 1) {
				scs = append(scs, sc)
			}
		}
		var want, scenarios []string
		for _, c := range grade.Checks() {
			for _, sc := range scs {
				if slices.Contains(sc.Grade, c.Name) {
					want = append(want, c.Name+" "+sc.Name)
				}
			}
		}
		for _, sc := range scs {
			scenarios = append(scenarios, sc.Name)
		}
		slices.Sort(want)
		slices.Sort(scenarios)

		cards := strings.Split(string(doc), "\n### Report card: ")[1:]
		Expect(len(cards)).To(BeNumerically(">=", 1))
		tally := regexp.MustCompile(`(?m)^(\d+) pass, (\d+) fail, (\d+) not reached\.`)
		for _, card := range cards {
			title, _, _ := strings.Cut(card, "\n")
			m := tally.FindStringSubmatch(card)
			Expect(m).NotTo(BeNil(), title)
			var got, runs []string
			count := map[string]int{}
			checks, seen, _ := strings.Cut(card, "What the server saw")
			for _, line := range strings.Split(checks, "\n") {
				cells := strings.Split(line, " | ")
				if len(cells) < 4 || !strings.HasPrefix(line, "| ") || cells[0] == "| check" || strings.HasPrefix(line, "| ---") {
					continue
				}
				got = append(got, strings.TrimPrefix(cells[0], "| ")+" "+cells[1])
				count[cells[2]]++
			}
			for _, line := range strings.Split(strings.Split(seen, "\n## ")[0], "\n") {
				cells := strings.Split(line, " | ")
				if len(cells) < 8 || !strings.HasPrefix(line, "| ") || cells[0] == "| scenario" || strings.HasPrefix(line, "| ---") {
					continue
				}
				runs = append(runs, strings.TrimPrefix(cells[0], "| "))
			}
			slices.Sort(got)
			slices.Sort(runs)
			Expect(got).To(Equal(want), title)
			Expect(runs).To(Equal(scenarios), title)
			Expect(fmt.Sprintf("%d pass, %d fail, %d not reached", count["PASS"], count["FAIL"], count["-"])).
				To(Equal(fmt.Sprintf("%s pass, %s fail, %s not reached", m[1], m[2], m[3])), title)
		}
	})

	It("have a section, measured and dated, with one card, for every client clients/grade-real.sh grades", func() {
		script, err := os.ReadFile("../clients/grade-real.sh")
		Expect(err).NotTo(HaveOccurred())
		doc, err := os.ReadFile("../docs/clients.md")
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, m := range regexp.MustCompile(`(?m)^  "([a-z0-9-]+)\|`).FindAllStringSubmatch(string(script), -1) {
			names = append(names, m[1])
		}
		Expect(names).To(ContainElements("sdk", "claude", "codex", "opencode", "gemini"))
		var sections []string
		for _, s := range strings.Split(string(doc), "\n## ")[1:] {
			name, _, _ := strings.Cut(s, ":")
			sections = append(sections, name)
			Expect(s).To(MatchRegexp("\nMeasured \\d{4}-\\d\\d-\\d\\d on faultbench [0-9a-f]{7,} in \\d+ min \\d+ s of real time\\."), name)
			Expect(strings.Count(s, "\n### Report card: ")).To(Equal(1), name)
		}
		Expect(sections).To(Equal(names), "the sections of docs/clients.md, in the script's order")
	})
})
