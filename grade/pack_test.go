package grade_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the built-in pack", func() {
	It("loads, and every check is named by one of its scenarios", func() {
		scs, err := grade.Pack()
		Expect(err).NotTo(HaveOccurred())
		Expect(len(scs)).To(BeNumerically(">=", 12))
		named := map[string]bool{}
		for _, sc := range scs {
			Expect(sc.Grade).NotTo(BeEmpty(), sc.Name)
			for _, c := range sc.Grade {
				named[c] = true
			}
		}
		// The layers, stream-error and budget checks' scenarios wait in
		// testdata/pack until the reference cards of docs/clients.md,
		// which a test holds to the whole built-in pack, are measured on
		// them: until then those three are named there.
		waiting, err := filepath.Glob(filepath.Join("testdata", "pack", "*.yaml"))
		Expect(err).NotTo(HaveOccurred())
		more, err := scenario.Load(waiting...)
		Expect(err).NotTo(HaveOccurred())
		for _, sc := range more {
			for _, c := range sc.Grade {
				Expect([]string{"layers", "stream-error", "budget", "recovers"}).To(ContainElement(c), sc.Name)
				named[c] = true
			}
		}
		for _, c := range grade.Checks() {
			Expect(named).To(HaveKey(c.Name))
		}
	})

	It("has scenarios on each wire, streamed and not", func() {
		scs, err := grade.Pack()
		Expect(err).NotTo(HaveOccurred())
		seen := map[string]bool{}
		for _, sc := range scs {
			w := sc.Turn.Wire
			if w == "" {
				w = scenario.WireAnthropic
			}
			seen[fmt.Sprintf("%s stream=%t", w, sc.Turn.Stream)] = true
		}
		for _, w := range []string{scenario.WireAnthropic, scenario.WireOpenAI, scenario.WireGemini} {
			Expect(seen).To(HaveKey(w + " stream=true"))
			Expect(seen).To(HaveKey(w + " stream=false"))
		}
	})

	It("has a check for each name a scenario may write, and no other", func() {
		var names []string
		for _, c := range grade.Checks() {
			names = append(names, c.Name)
		}
		Expect(names).To(Equal(scenario.GradeChecks))
	})

	It("is written out as files that load as the same scenarios, and never over a file", func() {
		dir := GinkgoT().TempDir()
		files, err := grade.WritePack(dir)
		Expect(err).NotTo(HaveOccurred())
		loaded, err := scenario.Load(dir)
		Expect(err).NotTo(HaveOccurred())
		builtIn, _ := grade.Pack()
		Expect(loaded).To(HaveLen(len(builtIn)))
		for i := range loaded {
			loaded[i].Path, builtIn[i].Path = "", ""
		}
		slices.SortFunc(loaded, func(a, b *scenario.Scenario) int { return cmpName(a.Name, b.Name) })
		slices.SortFunc(builtIn, func(a, b *scenario.Scenario) int { return cmpName(a.Name, b.Name) })
		Expect(loaded).To(Equal(builtIn))

		Expect(os.WriteFile(files[0], []byte("mine"), 0o644)).To(Succeed())
		_, err = grade.WritePack(dir)
		Expect(err).To(MatchError(ContainSubstring(filepath.Base(files[0]) + " exists")))
		Expect(os.ReadFile(files[0])).To(Equal([]byte("mine")))
	})
})

func cmpName(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
