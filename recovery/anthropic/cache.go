package anthropic

import (
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/faultbench/faultbench/recovery"
)

// cacheControl is the cache_control of a breakpoint with lifetime ttl:
// "1h" for an hour, else the API's default 5 minutes, left unsaid.
func cacheControl(ttl time.Duration) anthropic.CacheControlEphemeralParam {
	cc := anthropic.NewCacheControlEphemeralParam()
	if ttl >= recovery.CacheTTL1h {
		cc.TTL = anthropic.CacheControlEphemeralTTLTTL1h
	}
	return cc
}

// systemCache is the lifetime of the system prompt's breakpoint, 0 when
// the request marks none.
func systemCache(req recovery.Request) time.Duration {
	if req.System == "" || !req.Cache.Has(recovery.BreakpointSystem) {
		return 0
	}
	return req.Cache.Lifetime()
}

// markLast sets a breakpoint on the last of blocks.
func markLast(blocks []anthropic.ContentBlockParamUnion, ttl time.Duration) {
	if ttl == 0 || len(blocks) == 0 {
		return
	}
	b := &blocks[len(blocks)-1]
	cc := cacheControl(ttl)
	switch {
	case b.OfText != nil:
		b.OfText.CacheControl = cc
	case b.OfToolUse != nil:
		b.OfToolUse.CacheControl = cc
	case b.OfToolResult != nil:
		b.OfToolResult.CacheControl = cc
	}
}

// cacheUsage copies what the answer read from and wrote to the cache.
func cacheUsage(resp *recovery.Response, u anthropic.Usage) {
	resp.CacheReadTokens = int(u.CacheReadInputTokens)
	resp.CacheWrite5mTokens = int(u.CacheCreation.Ephemeral5mInputTokens)
	resp.CacheWrite1hTokens = int(u.CacheCreation.Ephemeral1hInputTokens)
	if split := resp.CacheWrite5mTokens + resp.CacheWrite1hTokens; int(u.CacheCreationInputTokens) > split {
		// An answer that gives no split wrote at the default lifetime.
		resp.CacheWrite5mTokens += int(u.CacheCreationInputTokens) - split
	}
}
