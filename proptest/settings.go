package proptest

import (
	"time"

	"github.com/faultbench/faultbench/proptest/property"
	"github.com/faultbench/faultbench/recovery"
)

// settingOf names the first of the settings s has that explains a broken
// property (property.Explain).
func settingOf(s recovery.Strategy, settings ...property.Setting) string {
	return property.Explain(s, settings...)
}

func shortMaxWait(s recovery.Strategy) (string, bool) {
	w := s.RateLimiter.MaxWait
	return "rate_limiter.max_wait: " + w.String() + ", shorter than a bucket takes to refill", w > 0 && w <= 61*time.Second
}
