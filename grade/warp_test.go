package grade_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/internal/fakeclient"
	"github.com/faultbench/faultbench/scenario"
)

// python is the interpreter of the probe clients: Debian's, which
// libfaketime warps (a version manager's shim would be a script in
// between, warped too, but slower to start).
const python = "/usr/bin/python3"

// WarpSpecsVar turns on the specs that run real clients under the warp:
// each takes seconds of real time (the ladder's 600 s rung is 10 s at
// 60×), so they run in CI only where it sets FAULTBENCH_WARP_SPECS=1.
const WarpSpecsVar = "FAULTBENCH_WARP_SPECS"

// needWarp skips the spec, naming it, where the warp cannot run or its
// specs are not asked for.
func needWarp(name string) {
	if os.Getenv(WarpSpecsVar) != "1" {
		Skip(name + ": runs real clients for seconds; set " + WarpSpecsVar + "=1")
	}
	if _, err := grade.LibFaketime(); err != nil {
		Skip(name + ": " + err.Error())
	}
	if _, err := os.Stat(python); err != nil {
		Skip(name + ": no " + python + " for the probe clients")
	}
}

// probe is the command of a probe client with a known Retry-After policy
// (testdata/ceilings/ceiling.py).
func probe(policy string) []string {
	p, err := filepath.Abs("testdata/ceilings/ceiling.py")
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return []string{python, p, policy}
}

// packOf are the built-in pack's scenarios whose names start with prefix.
func packOf(prefix string) []*scenario.Scenario {
	all, err := grade.Pack()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var out []*scenario.Scenario
	for _, sc := range all {
		if strings.HasPrefix(sc.Name, prefix) {
			out = append(out, sc)
		}
	}
	return out
}

// warped runs command on scs at speed and returns the card: each
// process may run 45 s of real time (at 60×, 45 min of its own: the
// ladder's 600 s rung fits).
func warped(command []string, speed int, b grade.Bounds, scs ...*scenario.Scenario) grade.Card {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runs, err := grade.Observe(ctx, scs, grade.Options{Command: command, Timeout: 45 * time.Second, Parallel: len(scs), Speed: speed})
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return grade.NewCard(command, runs, b)
}

var _ = Describe("the warped clock", func() {
	It("describes each probe client's Retry-After ceiling from the ladder", func() {
		needWarp("the ladder's probe spec")
		// Each probe's policy, and the ladder's statement of it.
		want := map[string]string{
			"none":       "no ceiling: kept every wait asked, up to 600 s",
			"fallback60": "ceiling 60 s; above it falls back to its backoff",
			"giveup60":   "ceiling 60 s; above it gives up",
			"giveup120":  "ceiling 120 s; above it gives up",
			"cap300":     "ceiling 121 s; above it caps the wait at 300",
			"unbounded":  "no ceiling: kept every wait asked, up to 600 s",
		}
		ladder := packOf("retry-after-ladder-")
		Expect(ladder).To(HaveLen(8))
		// One probe at a time, its eight rungs at once: more processes at
		// once make a host noise that leaves the ceiling unknown.
		cards := map[string]grade.Card{}
		for policy := range want {
			cards[policy] = warped(probe(policy), 60, grade.Bounds{}, ladder...)
		}
		for policy, stated := range want {
			c := cards[policy]
			for _, f := range c.Findings {
				if f.Status == grade.Inconclusive {
					Skip("the ladder's probe spec: the host's noise left " + policy + "'s ceiling unknown: " + f.Evidence)
				}
			}
			Expect(c.Speed).To(Equal(60), policy)
			Expect(c.Findings).To(HaveLen(8), policy)
			for _, f := range c.Findings {
				Expect(f.Evidence).To(ContainSubstring(stated), policy+": "+f.Scenario)
				Expect(f.Status).To(Equal(grade.Pass), policy+": "+f.Scenario+": "+f.Evidence)
			}
		}
	})

	It("gives the same verdicts at 60× as in real time, on scenarios short enough for both", func() {
		needWarp("the speed-equivalence spec")
		var short []*scenario.Scenario
		all, err := grade.Pack()
		Expect(err).NotTo(HaveOccurred())
		for _, sc := range all {
			if slices.Contains([]string{"retry-after", "overloaded-transient", "server-error-transient", "invalid-request", "should-retry-false"}, sc.Name) {
				short = append(short, sc)
			}
		}
		Expect(short).To(HaveLen(5))
		verdicts := func(c grade.Card) map[string]grade.Status {
			out := map[string]grade.Status{}
			for _, f := range c.Findings {
				out[f.Check+" "+f.Scenario] = f.Status
			}
			return out
		}
		slow := warped(probe("fallback60"), 1, grade.Bounds{}, short...)
		fast := warped(probe("fallback60"), 60, grade.Bounds{}, short...)
		Expect(verdicts(slow)).To(HaveLen(len(slow.Findings)))
		Expect(verdicts(fast)).To(Equal(verdicts(slow)))
		Expect(slow.Speed).To(Equal(0))
		Expect(fast.Speed).To(Equal(60))
	})

	It("judges a long outage, and a loop that never stops, in seconds", func() {
		needWarp("the outage spec")
		outage, forever := packOf("outage-30min")[0], packOf("overload-forever")[0]
		b := grade.Bounds{}
		c := warped(probe("unbounded"), 300, b, outage, forever)
		byScenario := map[string]grade.Finding{}
		for _, f := range c.Findings {
			byScenario[f.Scenario] = f
		}
		Expect(byScenario["outage-30min"].Status).To(Equal(grade.Pass), byScenario["outage-30min"].Evidence)
		Expect(byScenario["outage-30min"].Evidence).To(ContainSubstring("rode out the 30 min outage"))
		Expect(byScenario["overload-forever"].Status).To(Equal(grade.Fail))
		Expect(byScenario["overload-forever"].Evidence).To(MatchRegexp(`still retrying at the horizon \(225 min of its time\): \d+ attempts, [\d.]+ a minute`))

		c = warped(probe("giveup60"), 300, b, outage)
		Expect(c.Findings[0].Status).To(Equal(grade.Pass), c.Findings[0].Evidence)
		Expect(c.Findings[0].Evidence).To(ContainSubstring("gave up after 10 attempts"))
	})

	It("refuses a speed it cannot run", func() {
		_, err := grade.Observe(context.Background(), packOf("retry-after-ladder-030"), grade.Options{Command: []string{"true"}, Speed: grade.MaxSpeed + 1})
		Expect(err).To(MatchError(ContainSubstring("over 1000")))
	})

	It("finds a client the warp did not take from its waits, and judges its timing inconclusive", func() {
		needWarp("the warp-did-not-take spec")
		// The fake client is this test binary: Go reads the clock through
		// the vDSO, not libc, so libfaketime does not warp it, linked
		// dynamically as it is.
		all, err := grade.Pack()
		Expect(err).NotTo(HaveOccurred())
		sc := all[slices.IndexFunc(all, func(sc *scenario.Scenario) bool { return sc.Name == "retry-after" })]
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		runs, err := grade.Observe(ctx, []*scenario.Scenario{sc}, grade.Options{
			Command: []string{os.Args[0]}, Env: append(os.Environ(), fakeclient.Env+"=good"), Timeout: 20 * time.Second, Speed: 60})
		Expect(err).NotTo(HaveOccurred())
		c := grade.NewCard([]string{"fake"}, runs, grade.Bounds{})
		Expect(c.Unwarped).To(HavePrefix("the warp did not take: the waits came out about 60× what was asked"))
		for _, f := range c.Findings {
			if f.Check == "retry-after" {
				Expect(f.Status).To(Equal(grade.Inconclusive), f.Evidence)
			}
		}
	})
})
