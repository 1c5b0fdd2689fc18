package loopguard_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery/loopguard"
)

func fp(name, args string) loopguard.Fingerprint {
	f, err := loopguard.Of(name, []byte(args))
	Expect(err).NotTo(HaveOccurred())
	return f
}

// feed observes calls in order and returns every verdict.
func feed(g *loopguard.Guard, calls ...[2]string) []loopguard.Verdict {
	var out []loopguard.Verdict
	for _, c := range calls {
		out = append(out, g.Observe(loopguard.Fingerprint(c[0]), c[1]))
	}
	return out
}

func levels(vs []loopguard.Verdict) []loopguard.Level {
	out := make([]loopguard.Level, len(vs))
	for i, v := range vs {
		out[i] = v.Level
	}
	return out
}

const (
	none = loopguard.None
	warn = loopguard.Warn
	brk  = loopguard.Break
)

var _ = Describe("fingerprints", func() {
	It("ignore key order and whitespace", func() {
		Expect(fp("weather", `{"city":"Beijing","unit":"c"}`)).To(Equal(fp("weather", `{ "unit": "c",  "city": "Beijing" }`)))
		Expect(fp("f", `{"a":{"y":1,"x":[1,{"q":2,"p":3}]}}`)).To(Equal(fp("f", `{"a":{"x":[1,{"p":3,"q":2}],"y":1}}`)))
	})
	It("differ when a value, the tool or an array's order differs", func() {
		Expect(fp("weather", `{"city":"Beijing"}`)).NotTo(Equal(fp("weather", `{"city":"Shanghai"}`)))
		Expect(fp("weather", `{"city":"Beijing"}`)).NotTo(Equal(fp("forecast", `{"city":"Beijing"}`)))
		Expect(fp("f", `{"a":[1,2]}`)).NotTo(Equal(fp("f", `{"a":[2,1]}`)))
	})
	It("treat empty arguments as {} and reject broken JSON", func() {
		Expect(fp("f", ``)).To(Equal(fp("f", `{}`)))
		_, err := loopguard.Of("f", []byte(`{"a":`))
		Expect(err).To(MatchError(ContainSubstring("arguments of f")))
	})
})

var _ = Describe("the guard", func() {
	var g *loopguard.Guard
	BeforeEach(func() { g = loopguard.New(loopguard.Config{}) })

	It("warns at the third repeat of a call whose result changes, and breaks at the fifth", func() {
		vs := feed(g, [2]string{"poll:1", "r1"}, [2]string{"poll:1", "r2"}, [2]string{"poll:1", "r3"}, [2]string{"poll:1", "r4"}, [2]string{"poll:1", "r5"})
		Expect(levels(vs)).To(Equal([]loopguard.Level{none, none, warn, none, brk}))
		Expect(vs[2].Detector).To(Equal(loopguard.Repeat))
		Expect(vs[2].Message).To(ContainSubstring("poll"))
		Expect(vs[4].Detector).To(Equal(loopguard.Repeat))
	})
	It("warns at the second identical call with an identical result, and breaks at the third", func() {
		vs := feed(g, [2]string{"read:1", "same"}, [2]string{"read:1", "same"}, [2]string{"read:1", "same"})
		Expect(levels(vs)).To(Equal([]loopguard.Level{none, warn, brk}))
		Expect(vs[2].Detector).To(Equal(loopguard.NoProgress))
	})
	It("catches two calls alternating: warn at 3 cycles, break at 5", func() {
		var calls [][2]string
		for i := range 10 {
			name := "a:1"
			if i%2 == 1 {
				name = "b:1"
			}
			calls = append(calls, [2]string{name, string(rune('0' + i))}) // results differ: only ping-pong sees it
		}
		g = loopguard.New(loopguard.Config{RepeatWarn: 10, RepeatBreak: 11})
		vs := feed(g, calls...)
		Expect(levels(vs)).To(Equal([]loopguard.Level{none, none, none, none, none, warn, none, none, none, brk}))
		Expect(vs[9].Detector).To(Equal(loopguard.PingPong))
	})
	It("forgets calls that slid out of the window", func() {
		g = loopguard.New(loopguard.Config{Window: 3})
		vs := feed(g, [2]string{"x:1", "1"}, [2]string{"y:1", "1"}, [2]string{"z:1", "1"}, [2]string{"w:1", "1"}, [2]string{"x:1", "2"})
		Expect(levels(vs)).To(HaveEach(none))
	})
	It("warns again after the model changed course and fell back into the loop", func() {
		vs := feed(g, [2]string{"r:1", "s"}, [2]string{"r:1", "s"}, // warn
			[2]string{"q:1", "t"},                        // changed course
			[2]string{"r:1", "u"}, [2]string{"r:1", "u"}) // r again: repeat warns at 3; then no_progress at 2
		Expect(levels(vs)).To(Equal([]loopguard.Level{none, warn, none, warn, warn}))
	})
	It("never breaks without a warning first, even with break right above warn", func() {
		g = loopguard.New(loopguard.Config{NoProgressWarn: 1, NoProgressBreak: 2})
		vs := feed(g, [2]string{"r:1", "s"}, [2]string{"r:1", "s"})
		Expect(levels(vs)).To(Equal([]loopguard.Level{warn, brk}))
		Expect(vs[1].AtOnce).To(BeFalse())
	})
	It("breaks at once, with no warning, when break equals warn (the layered demo's no-progress rule)", func() {
		cfg := loopguard.Config{NoProgressWarn: 2, NoProgressBreak: 2}
		Expect(cfg.AtOnce(loopguard.NoProgress)).To(BeTrue())
		Expect(cfg.AtOnce(loopguard.Repeat)).To(BeFalse())
		g = loopguard.New(cfg)
		vs := feed(g, [2]string{"r:1", "s"}, [2]string{"r:1", "s"})
		Expect(levels(vs)).To(Equal([]loopguard.Level{none, brk}))
		Expect(vs[1].Detector).To(Equal(loopguard.NoProgress))
		Expect(vs[1].AtOnce).To(BeTrue())
		Expect(vs[1].Count).To(Equal(2))
	})
	It("raises a set break below its warn to the warn, and a default one above it", func() {
		Expect(loopguard.Config{RepeatWarn: 4, RepeatBreak: 2}.AtOnce(loopguard.Repeat)).To(BeTrue())
		Expect(loopguard.Config{RepeatWarn: 7}.AtOnce(loopguard.Repeat)).To(BeFalse(), "the default break, 5, is raised to 8")
		Expect(loopguard.Config{}.AtOnce(loopguard.NoProgress)).To(BeFalse(), "by default no_progress warns at 2 and breaks at 3")
	})
})
