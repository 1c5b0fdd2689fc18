package scenario_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/faultbench/faultbench/scenario"
)

// problems loads path and returns its errors, failing when there are none.
func problems(path string) []*scenario.Error {
	GinkgoHelper()
	_, err := scenario.LoadFile(path)
	Expect(err).To(HaveOccurred())
	errs := scenario.Errors(err)
	Expect(errs).NotTo(BeEmpty(), "every error is a *scenario.Error: %v", err)
	return errs
}

// fields lists the field paths of errs.
func fields(errs []*scenario.Error) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Field
	}
	return out
}

// minimal is the smallest valid scenario, with more YAML appended.
func minimal(more string) []byte {
	return []byte(`name: minimal
description: The smallest valid scenario.
models: {m: {context_window: 1000, max_output: 100}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
` + more)
}

var _ = Describe("Loading a scenario file", func() {
	It("reads every field of the docs example", func() {
		s, err := scenario.LoadFile("testdata/good.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(*s).To(Equal(scenario.Scenario{
			Name:        "overloaded-then-backup",
			Description: "The primary model stays overloaded; the backup answers.",
			Models: map[string]scenario.Model{
				"primary": {ContextWindow: 200000, MaxOutput: 32000},
				"backup":  {ContextWindow: 128000, MaxOutput: 16000},
				"spare":   {ContextWindow: 100000, MaxOutput: 8192},
			},
			Turn: scenario.Turn{
				Model:        "primary",
				Fallback:     []string{"backup", "spare"},
				MaxTokens:    4096,
				SystemTokens: 6000,
				Messages:     []scenario.MessageGroup{{Count: 20, Tokens: 90000}, {Count: 4, Tokens: 8000}},
				AnswerTokens: 900,
			},
			Compaction: scenario.Compaction{SummaryTokens: 1200},
			Script: []scenario.Rule{
				{
					When:    scenario.When{Model: "primary", Before: scenario.Duration(30 * time.Second)},
					Respond: scenario.Respond{Status: 529},
				},
				{
					When:    scenario.When{Model: "backup"},
					Times:   1,
					Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "2"}},
				},
				{
					When: scenario.When{
						Model:   "spare",
						Attempt: 2,
						After:   scenario.Duration(90 * time.Second),
						Before:  scenario.Duration(95 * time.Second),
						Purpose: "repair",
					},
					Respond: scenario.Respond{
						Status:  400,
						Type:    "invalid_request_error",
						Message: "prompt is too long: 210000 tokens > 200000 maximum",
						Headers: map[string]string{"x-should-retry": "false", "retry-after-ms": "500"},
					},
				},
				{
					When:    scenario.When{Purpose: "turn", After: scenario.Duration(500 * time.Millisecond)},
					Respond: scenario.Respond{OK: true, Headers: map[string]string{"x-faultbench": "note"}},
				},
				{Respond: scenario.Respond{OK: true}},
			},
			Expect: map[string]scenario.Expect{
				"classify": {Outcome: "success", Attempts: "<= 4", Wait: "<= 3s"},
				"blind":    {Outcome: "failed"},
				"claude-code": {
					Outcome:              "!= failed",
					Attempts:             "< 10",
					Wait:                 "< 1m",
					SubmittedInputTokens: "<= 1000000",
					RepairInputTokens:    "== 0",
					RepairCalls:          "0",
					Fallbacks:            ">= 1",
					Escalations:          "0",
					Compactions:          "!= 3",
					Steps:                "> 0",
				},
			},
			Path: "testdata/good.yaml",
		}))
	})

	It("reads a valid file as goccy/go-yaml's own decoder does", func() {
		data, err := os.ReadFile("testdata/good.yaml")
		Expect(err).NotTo(HaveOccurred())
		var direct scenario.Scenario
		Expect(yaml.UnmarshalWithOptions(data, &direct, yaml.DisallowUnknownField())).To(Succeed())
		direct.Path = "testdata/good.yaml"

		s, err := scenario.Parse("testdata/good.yaml", data)
		Expect(err).NotTo(HaveOccurred())
		Expect(*s).To(Equal(direct))
	})

	It("follows anchors, aliases and merge keys", func() {
		s, err := scenario.LoadFile("testdata/anchors.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Models["backup"]).To(Equal(s.Models["primary"]))
		Expect(s.Script[1].Respond).To(Equal(scenario.Respond{
			Status: 503, Type: "overloaded_error", Headers: map[string]string{"x-should-retry": "true"},
		}), "the key written beside the merge wins over the merged one")
	})

	It("reads a file that begins with a %YAML directive", func() {
		_, err := scenario.Parse("m.yaml", append([]byte("%YAML 1.2\n---\n"), minimal("")...))
		Expect(err).NotTo(HaveOccurred())
	})

	It("fills in the default summary size", func() {
		s, err := scenario.Parse("m.yaml", minimal(""))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Compaction.SummaryTokens).To(Equal(scenario.DefaultSummaryTokens))
		Expect(s.Path).To(Equal("m.yaml"))
		Expect(s.Script).To(BeEmpty())
	})

	It("names the line and the field of an unknown field", func() {
		errs := problems("testdata/unknown_field.yaml")
		Expect(errs).To(HaveLen(1), "a misspelt key is one problem, not also a missing status")
		Expect(*errs[0]).To(MatchFields(IgnoreExtras, Fields{
			"File": Equal("testdata/unknown_field.yaml"), "Line": Equal(12), "Column": Equal(15),
			"Field": Equal("script[0].respond.stauts"),
		}))
		Expect(errs[0].Error()).To(Equal(
			`testdata/unknown_field.yaml:12:15: script[0].respond.stauts: unknown field "stauts"; did you mean "status"?`))
	})

	It("names the line of a value of the wrong type", func() {
		errs := problems("testdata/type_error.yaml")
		Expect(errs).To(HaveLen(1), "max_tokens is not also reported as 0")
		Expect(errs[0].Error()).To(Equal(
			`testdata/type_error.yaml:7:15: turn.max_tokens: want a whole number, got string "lots"`))
	})

	It("names file, line and field of a reference to an undeclared model", func() {
		_, err := scenario.LoadFile("testdata/undeclared_model.yaml")
		var e *scenario.Error
		Expect(errors.As(err, &e)).To(BeTrue())
		Expect(e.File).To(Equal("testdata/undeclared_model.yaml"))
		Expect(e.Line).To(Equal(13))
		Expect(e.Field).To(Equal("script[1].when.model"))
		Expect(e.Msg).To(ContainSubstring(`"backup" is not declared`))
	})

	It("names the line of a YAML syntax error", func() {
		errs := problems("testdata/syntax_error.yaml")
		Expect(errs).To(HaveLen(1))
		Expect(errs[0].Line).To(BeNumerically(">=", 4))
		Expect(errs[0].Error()).To(HavePrefix("testdata/syntax_error.yaml:5:1: YAML: "))
	})

	It("reports every problem in a file at once, in line order", func() {
		_, err := scenario.LoadFile("testdata/many_problems.yaml")
		errs := scenario.Errors(err)
		Expect(fields(errs)).To(Equal([]string{
			"description",
			"name",
			"models.primary.max_output",
			"turn.fallback[0]",
			"turn.fallback[1]",
			"turn.max_tokens",
			"turn.messages[0].tokens",
			"turn.temperature",
			"script[0].when.before",
			"script[0].when.purpose",
			"script[0].respond",
			"script[1].respond.status",
			"script[1].respond.headers.retry-after",
			"script[2].respond",
			"script[2].respond.type",
			"script[3].when.after",
			"expect.classify.outcome",
			"expect.classify.attempts",
			"expect.classify.wait",
		}))
		for _, e := range errs[1:] {
			Expect(e.Line).To(BeNumerically(">", 0), "%v has a line", e)
		}
		var first *scenario.Error
		Expect(errors.As(err, &first)).To(BeTrue())
		Expect(first).To(BeIdenticalTo(errs[0]))
	})

	DescribeTable("rejects a broken file with its line",
		func(yamlText, want string) {
			_, err := scenario.Parse("x.yaml", []byte(yamlText))
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(Equal(want))
		},
		Entry("an empty file", "", "x.yaml: no scenario in file: it is empty"),
		Entry("only comments", "# nothing\n", "x.yaml: no scenario in file: it is empty"),
		Entry("a list", "- a\n- b\n",
			"x.yaml:1:1: want a mapping of scenario fields (name, description, models, turn, ...), got a list"),
		Entry("two documents", string(minimal("---\nname: two\n")),
			"x.yaml:5:1: a scenario file holds one YAML document; another begins here"),
		Entry("two documents after a directive", "%YAML 1.2\n---\n"+string(minimal("---\nname: two\n")),
			"x.yaml:7:1: a scenario file holds one YAML document; another begins here"),
		Entry("a duplicate key", "name: a\nname: b\n",
			`x.yaml:2:1: YAML: mapping key "name" already defined at [1:1]`),
		Entry("an unknown alias", string(minimal("compaction: *nope\n")),
			"x.yaml:5:13: compaction: unknown alias *nope"),
		Entry("a negative duration", string(minimal("script: [{when: {after: -5s}, respond: {ok: true}}]\n")),
			`x.yaml:5:25: script[0].when.after: duration must not be negative, got "-5s"`),
		Entry("a fractional count", string(minimal("compaction: {summary_tokens: 2.5}\n")),
			"x.yaml:5:30: compaction.summary_tokens: want a whole number, got 2.5"),
		Entry("a number too large", string(minimal("compaction: {summary_tokens: 99999999999999999999}\n")),
			"x.yaml:5:30: compaction.summary_tokens: number 99999999999999999999 is too large"),
		Entry("a string for a bool", string(minimal("script: [{respond: {ok: yes}}]\n")),
			`x.yaml:5:25: script[0].respond.ok: want true or false, got string "yes"`),
		Entry("a list for a mapping", string(minimal("compaction: [1]\n")),
			"x.yaml:5:13: compaction: want a mapping, got a list"),
		Entry("a model name with a dot, quoted in the path",
			"name: n\ndescription: d\nmodels: {gpt-4.1: {context_window: 10, max_output: 0}}\n"+
				"turn: {model: gpt-4.1, max_tokens: 1, messages: [{count: 1, tokens: 1}], answer_tokens: 1}\n",
			`x.yaml:3:40: models["gpt-4.1"].max_output: must be > 0, got 0`),
		Entry("a missing nested field, at its parent", "name: n\ndescription: d\nmodels: {m: {context_window: 10, max_output: 5}}\n"+
			"turn:\n  max_tokens: 1\n  messages: [{count: 1, tokens: 1}]\n  answer_tokens: 1\n",
			"x.yaml:4:1: turn.model: required: the model the turn asks for"),
		Entry("an alias that contains itself", string(minimal("compaction: &x {<<: *x}\n")),
			"x.yaml:5:21: compaction: alias *x refers to itself"),
		Entry("a model alias to a model not served", string(minimal("aliases:\n  claude-sonnet-4-5: primary\n")),
			`x.yaml:6:3: aliases.claude-sonnet-4-5: model "primary" is not declared in models (declared: "m")`),
		Entry("a model alias that names a served model", string(minimal("aliases: {m: m}\n")),
			`x.yaml:5:11: aliases.m: "m" is a model of models: it is served as itself, so the alias would never apply`),
		Entry("a model alias with no target", string(minimal("aliases: {any: \"\"}\n")),
			`x.yaml:5:11: aliases.any: required: the model of models the name "any" is served as`),
		Entry("model aliases as a list", string(minimal("aliases: [m]\n")),
			"x.yaml:5:10: aliases: want a mapping, got a list"),
		Entry("a grade check that is none", string(minimal("grade: [recovers, retry-afterr]\n")),
			`x.yaml:5:19: grade[1]: "retry-afterr" is not a check of faultbench grade (checks: retry-after, retry-after-ms, should-retry-false, permanent, bounded, backoff, jitter, recovers, stream-restarts, hang, overflow, fallback, layers, stream-error, budget, ladder, outage, unbounded)`),
	)

	It("reads the grade checks", func() {
		s, err := scenario.Parse("x.yaml", minimal("grade: [recovers, backoff]\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Grade).To(Equal([]string{"recovers", "backoff"}))
	})

	It("reads model aliases", func() {
		s, err := scenario.Parse("x.yaml", minimal("aliases: {claude-sonnet-4-5: m, any: m}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Aliases).To(Equal(map[string]string{"claude-sonnet-4-5": "m", scenario.AnyModel: "m"}))
	})

	It("stops an alias bomb quickly", func() {
		bomb := "x:\n  a0: &a0 {summary_tokens: 1}\n"
		for i := 1; i <= 7; i++ {
			bomb += fmt.Sprintf("  a%d: &a%d [%s]\n", i, i, strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9)+fmt.Sprintf("*a%d", i-1))
		}
		bomb += "compaction: {<<: *a7}\n"
		// Bounded by the work, not the clock (a busy host is slow, not
		// wrong): the bomb's 10^7 values expanded would allocate gigabytes;
		// the cap stops it after 100,000.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := scenario.Parse("x.yaml", minimal(bomb))
		runtime.ReadMemStats(&after)
		Expect(after.TotalAlloc-before.TotalAlloc).To(BeNumerically("<", uint64(256<<20)), "bytes allocated")
		Expect(err).To(MatchError(ContainSubstring("compaction: aliases expand to more than 100000 values")))
		Expect(err).To(MatchError(ContainSubstring(`x: unknown field "x"`)))
	})

	It("loads a large plain file: only alias expansions count against the cap", func() {
		var b strings.Builder
		b.WriteString("name: big\ndescription: d\nmodels: {m: {context_window: 5000000, max_output: 100}}\n")
		b.WriteString("turn:\n  model: m\n  max_tokens: 100\n  answer_tokens: 10\n  messages:\n")
		for b.Len() < 1_100_000 {
			b.WriteString("    - {count: 2, tokens: 100}\n")
		}
		s, err := scenario.Parse("big.yaml", []byte(b.String()))
		Expect(err).NotTo(HaveOccurred())
		Expect(len(s.Turn.Messages)).To(BeNumerically(">", 35_000))
	})

	It("stops at an alias bomb without piling up follow-on errors", func() {
		bomb := "x:\n  a0: &a0 {model: m}\n"
		for i := 1; i <= 7; i++ {
			bomb += fmt.Sprintf("  a%d: &a%d [%s]\n", i, i, strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9)+fmt.Sprintf("*a%d", i-1))
		}
		data := `name: bomb
description: d
models: {m: {context_window: 1000, max_output: 100}}
` + bomb + "turn: {<<: *a7}\n"
		_, err := scenario.Parse("x.yaml", []byte(data))
		Expect(fields(scenario.Errors(err))).To(Equal([]string{"x", "turn"}))
	})

	It("reports at most 100 problems a file", func() {
		more := "script:\n" + strings.Repeat("  - respond: {status: 200}\n", 500)
		errs := scenario.Errors(func() error { _, err := scenario.Parse("x.yaml", minimal(more)); return err }())
		Expect(errs).To(HaveLen(101))
		Expect(errs[100].Msg).To(Equal("400 more problems not shown, from here on"))
	})

	It("checks rules, headers and expectations", func() {
		_, err := scenario.Parse("x.yaml", minimal(`script:
  - when: {attempt: -1, model: m}
    times: -2
    respond: {status: 529, headers: {"Bad Name": x, Retry-After: "1", retry-after: "2", x-multi: "a\nb"}}
expect:
  "": {outcome: "== aborted", attempts: "3s", wait: "== 0"}
`))
		Expect(fields(scenario.Errors(err))).To(ConsistOf(
			"script[0].when.attempt",
			"script[0].times",
			`script[0].respond.headers["Bad Name"]`,
			"script[0].respond.headers.retry-after",
			"script[0].respond.headers.x-multi",
			`expect[""]`,
			`expect[""].attempts`,
		))
	})
})

var _ = Describe("A workload's budgets", func() {
	It("are read for a scenario with a workload", func() {
		s, err := scenario.Parse("x.yaml", minimal(`workload: {turns: 4, concurrency: 2}
expect:
  classify: {attempts: "<= 8", makespan: "< 30s", p99: "<= 10s", wasted_input_tokens: "== 0"}
`))
		Expect(err).NotTo(HaveOccurred())
		bs, err := s.Expect["classify"].Budgets()
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, b := range bs {
			names = append(names, b.Field)
		}
		Expect(names).To(Equal([]string{"attempts", "makespan", "p99", "wasted_input_tokens"}))
		Expect(bs[1].Value).To(Equal(30_000.0))
	})

	It("are refused, with their line, on a scenario without a workload, and want a unit for a time", func() {
		_, err := scenario.Parse("x.yaml", minimal(`expect:
  classify:
    makespan: "< 30s"
    p99: "<= 10s"
    wasted_input_tokens: "== 0"
`))
		errs := scenario.Errors(err)
		Expect(fields(errs)).To(Equal([]string{"expect.classify.makespan", "expect.classify.p99", "expect.classify.wasted_input_tokens"}))
		Expect(errs[0].Error()).To(Equal("x.yaml:7:5: expect.classify.makespan: makespan is a workload's figure, and the scenario has no workload"))
		Expect(errs[2].Line).To(Equal(9))
		_, err = scenario.Parse("x.yaml", minimal(`workload: {turns: 4}
expect: {classify: {makespan: "< 30", wasted_input_tokens: "1s"}}
`))
		Expect(fields(scenario.Errors(err))).To(Equal([]string{"expect.classify.makespan", "expect.classify.wasted_input_tokens"}))
	})
})

var _ = Describe("Loading files and folders", func() {
	It("loads every YAML file directly in a folder, sorted by path", func() {
		ss, err := scenario.Load("testdata/folder")
		Expect(err).NotTo(HaveOccurred())
		Expect(ss).To(HaveLen(2), "notes.txt, README.md and sub/c.yaml are skipped")
		Expect(ss[0].Path).To(Equal(filepath.Join("testdata", "folder", "a.yml")))
		Expect(ss[0].Name).To(Equal("folder-a"))
		Expect(ss[1].Path).To(Equal(filepath.Join("testdata", "folder", "b.yaml")))
	})

	It("reads a file once when it is named and in a named folder", func() {
		abs, err := filepath.Abs("testdata/folder/a.yml")
		Expect(err).NotTo(HaveOccurred())
		ss, err := scenario.Load("testdata/folder/b.yaml", "testdata/folder", "./testdata/folder/b.yaml", abs)
		Expect(err).NotTo(HaveOccurred())
		Expect(ss).To(HaveLen(2))
	})

	It("rejects two scenarios with the same name, naming both files", func() {
		_, err := scenario.Load("testdata/dup")
		Expect(err).To(MatchError(
			`testdata/dup/two.yaml:2:1: name: scenario name "same-name" is already used by testdata/dup/one.yaml:1`))
	})

	It("names a path that does not exist", func() {
		_, err := scenario.Load("testdata/folder", "testdata/missing.yaml")
		Expect(err).To(MatchError("testdata/missing.yaml: cannot read: no such file or directory"))
		Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue())
	})

	It("rejects a folder without scenario files", func() {
		dir := GinkgoT().TempDir()
		_, err := scenario.Load(dir)
		Expect(err).To(MatchError(dir + ": folder holds no scenario files (*.yaml, *.yml)"))
	})

	It("reports the problems of every file together", func() {
		_, err := scenario.Load("testdata/type_error.yaml", "testdata/undeclared_model.yaml", "testdata/good.yaml")
		var files []string
		for _, e := range scenario.Errors(err) {
			files = append(files, e.File)
		}
		Expect(files).To(Equal([]string{"testdata/type_error.yaml", "testdata/undeclared_model.yaml"}))
	})

	It("loads nothing from no paths", func() {
		ss, err := scenario.Load()
		Expect(err).NotTo(HaveOccurred())
		Expect(ss).To(BeEmpty())
	})
})

var _ = Describe("Validate", func() {
	It("checks a scenario built in code, without lines", func() {
		s, err := scenario.LoadFile("testdata/good.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Validate()).To(Succeed())

		s.Turn.Fallback = append(s.Turn.Fallback, "backup")
		s.Script[0].Respond.OK = true
		err = s.Validate()
		Expect(err).To(MatchError(ContainSubstring(
			`testdata/good.yaml: turn.fallback[2]: "backup" is already fallback[0]`)))
		Expect(fields(scenario.Errors(err))).To(ConsistOf("turn.fallback[2]", "script[0].respond"))
	})
})

var _ = DescribeTable("Error text leaves out what is unknown",
	func(e scenario.Error, want string) { Expect(e.Error()).To(Equal(want)) },
	Entry("everything", scenario.Error{File: "f.yaml", Line: 3, Column: 7, Field: "turn.model", Msg: "m"}, "f.yaml:3:7: turn.model: m"),
	Entry("no column", scenario.Error{File: "f.yaml", Line: 3, Field: "turn", Msg: "m"}, "f.yaml:3: turn: m"),
	Entry("no line", scenario.Error{File: "f.yaml", Field: "name", Msg: "m"}, "f.yaml: name: m"),
	Entry("no field", scenario.Error{File: "f.yaml", Msg: "m"}, "f.yaml: m"),
	Entry("no file", scenario.Error{Line: 2, Column: 1, Msg: "m"}, "2:1: m"),
	Entry("message only", scenario.Error{Msg: "m"}, "m"),
)
