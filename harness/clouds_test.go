package harness_test

import (
	"context"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// The cloud providers' scenarios live outside the default suite
// (scenarios-clouds/), so that its report keeps its length; each holds
// to its expect blocks here.
var _ = Describe("the cloud scenarios", func() {
	It("hold to their expectations", func() {
		paths, err := filepath.Glob("../scenarios-clouds/*.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(paths).NotTo(BeEmpty())
		scs, err := scenario.Load(paths...)
		Expect(err).NotTo(HaveOccurred())
		rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Blind(), recovery.Classifying(), recovery.S11()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		vs, err := harness.Check(scs, rep.Results)
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(BeEmpty())
	})
})
