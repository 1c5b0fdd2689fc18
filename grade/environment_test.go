package grade_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the client's environment", func() {
	sc := &scenario.Scenario{Name: "s", Turn: scenario.Turn{Model: "primary", Wire: scenario.WireGemini, Stream: true}}
	lookup := func(env []string, key string) (string, bool) {
		v, ok := "", false
		for _, kv := range env {
			if k, val, found := strings.Cut(kv, "="); found && k == key {
				v, ok = val, true
			}
		}
		return v, ok
	}

	It("names each wire's base URL as its clients read it, and a dummy key for each where none is set", func() {
		env := grade.Environment([]string{"PATH=/bin", "OPENAI_API_KEY=mine"}, "http://127.0.0.1:9/s/s/grade/", sc)
		for k, want := range map[string]string{
			"ANTHROPIC_BASE_URL":     "http://127.0.0.1:9/s/s/grade",
			"OPENAI_BASE_URL":        "http://127.0.0.1:9/s/s/grade/v1",
			"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9/s/s/grade",
			"AZURE_OPENAI_ENDPOINT":  "http://127.0.0.1:9/s/s/grade",
			"OPENAI_API_VERSION":     "2024-10-21",
			"AZURE_OPENAI_API_KEY":   grade.DummyKey,
			"FAULTBENCH_BASE_URL":    "http://127.0.0.1:9/s/s/grade/",
			"FAULTBENCH_WIRE":        "gemini",
			"FAULTBENCH_STREAM":      "true",
			"ANTHROPIC_API_KEY":      grade.DummyKey,
			"GEMINI_API_KEY":         grade.DummyKey,
			"OPENAI_API_KEY":         "mine",
			"PATH":                   "/bin",
		} {
			v, ok := lookup(env, k)
			Expect(ok).To(BeTrue(), k)
			Expect(v).To(Equal(want), k)
		}
	})
})
