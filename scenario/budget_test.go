package scenario_test

import (
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("Budgets", func() {
	DescribeTable("parse",
		func(s, op string, value float64, duration bool) {
			b, err := scenario.ParseBudget(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(b.Op).To(Equal(op))
			Expect(b.Value).To(Equal(value))
			Expect(b.IsDuration()).To(Equal(duration))
		},
		Entry("at most", "<= 4", "<=", 4.0, false),
		Entry("less, a duration in ms", "< 3s", "<", 3000.0, true),
		Entry("equal zero", "== 0", "==", 0.0, false),
		Entry("bare means equal", "5", "==", 5.0, false),
		Entry("no space", ">=2", ">=", 2.0, false),
		Entry("greater", "> 1", ">", 1.0, false),
		Entry("not equal", "!= 3", "!=", 3.0, false),
		Entry("a decimal", "<= 2.5", "<=", 2.5, false),
		Entry("milliseconds", "< 500ms", "<", 500.0, true),
		Entry("minutes and seconds", "<= 1m30s", "<=", 90000.0, true),
		Entry("surrounding space", "  <=   10  ", "<=", 10.0, false),
	)

	DescribeTable("reject",
		func(s string) {
			_, err := scenario.ParseBudget(s)
			Expect(err).To(HaveOccurred())
		},
		Entry("empty", ""),
		Entry("an operator alone", "<="),
		Entry("a word", "about 4"),
		Entry("a single =", "= 4"),
		Entry("a negative number", "> -1"),
		Entry("a negative duration", "< -3s"),
		Entry("an unknown unit", "< 3 days"),
		Entry("a separator", "<= 1,000"),
		Entry("two operators", "<= < 4"),
	)

	DescribeTable("hold",
		func(s string, v float64, holds bool) {
			b, err := scenario.ParseBudget(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(b.Holds(v)).To(Equal(holds))
		},
		Entry("4 <= 4", "<= 4", 4.0, true),
		Entry("5 <= 4", "<= 4", 5.0, false),
		Entry("2999 ms < 3s", "< 3s", 2999.0, true),
		Entry("3000 ms < 3s", "< 3s", 3000.0, false),
		Entry("1 >= 1", ">= 1", 1.0, true),
		Entry("0 >= 1", ">= 1", 0.0, false),
		Entry("1 > 0", "> 0", 1.0, true),
		Entry("0 > 0", "> 0", 0.0, false),
		Entry("0 == 0", "== 0", 0.0, true),
		Entry("1 == 0", "== 0", 1.0, false),
		Entry("bare 5 by 5", "5", 5.0, true),
		Entry("bare 5 by 6", "5", 6.0, false),
		Entry("3 != 3", "!= 3", 3.0, false),
		Entry("2 != 3", "!= 3", 2.0, true),
	)

	It("holds nothing with an unknown operator", func() {
		Expect(scenario.Budget{Op: "~", Value: 1}.Holds(1)).To(BeFalse())
	})

	DescribeTable("outcomes",
		func(s, outcome string, holds bool) {
			m, err := scenario.ParseOutcome(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(m.Holds(outcome)).To(Equal(holds))
		},
		Entry("bare", "success", "success", true),
		Entry("bare, other", "success", "failed", false),
		Entry("equal", "== truncated", "truncated", true),
		Entry("not equal", "!= failed", "success", true),
		Entry("not equal, same", "!=failed", "failed", false),
		Entry("aborted", "aborted", "aborted", true),
		Entry("cancelled", "cancelled", "cancelled", true),
	)

	DescribeTable("reject outcomes",
		func(s string) {
			_, err := scenario.ParseOutcome(s)
			Expect(err).To(MatchError(ContainSubstring("want one of success, truncated, failed, aborted, cancelled")))
		},
		Entry("unknown", "succeeded"),
		Entry("a comparison", "<= success"),
		Entry("empty", ""),
		Entry("upper case", "Success"),
	)

	It("lists the budgets an expect block sets, by field", func() {
		bs, err := scenario.Expect{Outcome: "success", Attempts: "<= 4", Wait: "< 3s", Steps: "2"}.Budgets()
		Expect(err).NotTo(HaveOccurred())
		Expect(bs).To(Equal([]scenario.NamedBudget{
			{Field: "attempts", Budget: scenario.Budget{Op: "<=", Value: 4, Raw: "<= 4"}},
			{Field: "wait", Budget: scenario.Budget{Op: "<", Value: 3000, Raw: "< 3s"}},
			{Field: "steps", Budget: scenario.Budget{Op: "==", Value: 2, Raw: "2"}},
		}))
		_, err = scenario.Expect{Fallbacks: "some"}.Budgets()
		Expect(err).To(MatchError(ContainSubstring("fallbacks: budget \"some\"")))
	})

	It("knows every budget field of Expect", func() {
		// Budgets walks a list of its own; a field added to Expect must
		// join it. Fill every string field and count what comes back.
		var e scenario.Expect
		v := reflect.ValueOf(&e).Elem()
		n := 0
		for i := range v.NumField() {
			if v.Type().Field(i).Name != "Outcome" {
				v.Field(i).SetString("1")
				n++
			}
		}
		bs, err := e.Budgets()
		Expect(err).NotTo(HaveOccurred())
		Expect(bs).To(HaveLen(n))
	})
})
