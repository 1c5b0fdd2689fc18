package strategyfile_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
)

func TestPromptCacheReadsBreakpointsAndLifetime(t *testing.T) {
	s, err := strategyfile.Parse("mine.yaml", []byte("base: classify\nprompt_cache: {breakpoints: [last_user, system, last_user], ttl: 1h}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := recovery.PromptCache{Breakpoints: []recovery.Breakpoint{recovery.BreakpointLastUser, recovery.BreakpointSystem}, TTL: recovery.CacheTTL1h}
	if !reflect.DeepEqual(s.PromptCache, want) {
		t.Fatalf("prompt_cache %+v, want %+v", s.PromptCache, want)
	}
	s, err = strategyfile.Parse("mine.yaml", []byte("base: claude-code\nprompt_cache: {ttl: 5m}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.PromptCache; got.TTL != 0 || !got.Has(recovery.BreakpointSystem) || !got.Has(recovery.BreakpointLastUser) {
		t.Fatalf("claude-code with ttl 5m: %+v, want its breakpoints and the default lifetime", got)
	}
	for _, bad := range []string{"prompt_cache: {ttl: 10m}\n", "prompt_cache: {breakpoints: [tools]}\n", "prompt_cache: {breakpoint: [system]}\n"} {
		_, err := strategyfile.Parse("bad.yaml", []byte(bad))
		if err == nil || !strings.Contains(err.Error(), "bad.yaml:1:") {
			t.Errorf("%q: got %v, want an error at bad.yaml:1", bad, err)
		}
	}
}
