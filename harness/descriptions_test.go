package harness_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
)

// strategyNames are the names a scenario's description may speak of: the
// presets and the strategy files of strategies/.
func strategyNames() []string {
	var names []string
	for _, s := range recovery.Presets() {
		names = append(names, s.Name)
	}
	files, err := filepath.Glob("../strategies/*.yaml")
	Expect(err).NotTo(HaveOccurred())
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".yaml"))
	}
	return names
}

var _ = Describe("the default suite's descriptions", func() {
	// A description's claim about a strategy is pinned by a budget for
	// it, which "meets every budget its scenarios set" then checks for
	// every preset and harness's sibling test for strategies/: a
	// description that names a strategy without a budget could say
	// anything.
	It("set a budget for every strategy they name", func() {
		names := strategyNames()
		Expect(names).To(ContainElement("classify-loop-strict"))
		for _, sc := range suite() {
			for _, name := range names {
				word := regexp.MustCompile(`(^|[^\w-])` + regexp.QuoteMeta(name) + `($|[^\w-])`)
				if word.MatchString(sc.Description) {
					Expect(sc.Expect).To(HaveKey(name), "%s: the description speaks of %s but sets it no budget", sc.Path, name)
				}
			}
		}
	})

	It("name a strategy file that exists for every budget that is not a preset's", func() {
		for _, sc := range suite() {
			for name := range sc.Expect {
				if _, ok := recovery.Preset(name); ok {
					continue
				}
				_, err := os.Stat(filepath.Join("../strategies", name+".yaml"))
				Expect(err).NotTo(HaveOccurred(), "%s: a budget for %s, which is neither a preset nor in strategies/", sc.Path, name)
			}
		}
	})
})
