package grade

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// Options say how Observe runs the client.
type Options struct {
	// Command is the client: the program and its arguments, run once per
	// scenario.
	Command []string
	// Timeout bounds each scenario's process, in real time; past it the
	// process group is killed. 0 means DefaultTimeout.
	Timeout time.Duration
	// Parallel is how many scenarios run at once; 0 means DefaultParallel.
	Parallel int
	// Env is the environment the client starts from; nil means this
	// process's. Observe adds the variables of Environment to it.
	Env []string
	// Dir is the client's working directory; "" means this process's.
	Dir string
	// Speed runs the client's clock and the mock's Speed times fast
	// (warp.go): 0 or 1 is real time, at most MaxSpeed. A scenario that
	// does not fit the timeout at this speed is not run (Fits). A
	// statically linked client is run in real time, and its runs say so
	// (Run.Unwarped).
	Speed int
}

// The defaults of Options.
const (
	DefaultTimeout  = 120 * time.Second
	DefaultParallel = 4
)

// Session is the session each scenario's client is given, in the path of
// its base URL.
const Session = "grade"

// Observe runs the client once per scenario against one mock server on a
// loopback port, in real time, and returns what each scenario saw, in
// the order of scs. Each process has its own session, named by its base
// URL, so that scenarios run in parallel without a header; the session's
// clock starts at the client's first request, as under serve, so that
// the client's start-up time changes nothing the script does. A process that
// outlives the timeout is killed with its process group. When ctx ends,
// the processes in flight are killed and the scenarios not begun are left
// out; the error is then ctx's.
func Observe(ctx context.Context, scs []*scenario.Scenario, opts Options) ([]Run, error) {
	if len(opts.Command) == 0 {
		return nil, errors.New("grade: no command to run")
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	speed, unwarped, lib, err := warpOf(opts)
	if err != nil {
		return nil, err
	}
	clk := clock.Warped{Origin: time.Now(), Speed: speed}
	srv := mockllm.New(scs, clk)
	ep, err := mockllm.StartLimited(srv, "127.0.0.1:0", mockllm.DefaultLimits)
	if err != nil {
		return nil, fmt.Errorf("grade: start the mock: %w", err)
	}
	defer ep.Close()

	runs := make([]Run, len(scs))
	done := make([]bool, len(scs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(parallel, len(scs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sc := scs[i]
				r := Run{Scenario: sc, Timeout: timeout, Exit: -1, Speed: speed, Unwarped: unwarped}
				if !Fits(sc, timeout, speed) {
					r.Skipped = fmt.Sprintf("needs --speed %d or more: a well-behaved client needs %s of its time here, too long for the timeout at this speed",
						NeedsSpeed(sc, timeout), minutes(span(sc)))
				} else if err := srv.OpenAtFirstRequest(sc.Name, Session, nil); err != nil {
					r.Err = err
				} else {
					env := Environment(base, ep.SessionURL(sc.Name, Session), sc)
					noise := startProbe()
					at := time.Now()
					launched := clk.At(at)
					if speed > 1 {
						env = warpEnv(env, lib, clk, at)
					}
					p := runProcess(ctx, opts.Command, env, opts.Dir, timeout)
					ended := clk.Now()
					r.Noise = warpNoise(noise.end(), speed)
					r.Elapsed, r.Startup = ended.Sub(launched), -1
					if first, ok := srv.Started(sc.Name, Session); ok {
						r.Elapsed, r.Startup = ended.Sub(first), first.Sub(launched)
					}
					r.Exit, r.TimedOut, r.Output, r.Err = p.exit, p.timedOut, p.output, p.err
					r.Entries = append(srv.Entries(sc.Name, Session), strays(srv, sc.Name)...)
				}
				runs[i], done[i] = r, ctx.Err() == nil
			}
		}()
	}
feed:
	for i := range scs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		kept := runs[:0]
		for i, r := range runs {
			if done[i] {
				kept = append(kept, r)
			}
		}
		return kept, fmt.Errorf("grade: %w", context.Cause(ctx))
	}
	return runs, nil
}

// strays are the requests of a scenario's grade session that reached no
// session — a models listing, a token count, an unknown path, a 405 —
// journalled with their route: the card counts them, no check judges
// them.
func strays(srv *mockllm.Server, name string) []mockllm.Entry {
	var out []mockllm.Entry
	for _, e := range srv.Journal() {
		if e.Route != "" && e.Scenario == name && e.Session == Session {
			out = append(out, e)
		}
	}
	return out
}

// DummyKey is the API key a client is given when its environment has none.
const DummyKey = "faultbench-dummy-key"

// AzureAPIVersion is the api-version an Azure OpenAI client is given
// (OPENAI_API_VERSION): Azure OpenAI's GA data-plane version.
const AzureAPIVersion = "2024-10-21"

// VertexRegion is the region a Vertex AI client is given
// (CLOUD_ML_REGION).
const VertexRegion = "us-east5"

// Environment is the client's environment for one scenario: base, and
// over it ANTHROPIC_BASE_URL (the session's base URL without its last
// slash, as the Anthropic SDKs join paths), OPENAI_BASE_URL (with /v1),
// GOOGLE_GEMINI_BASE_URL (without its last slash: @google/genai and
// Gemini CLI add /v1beta/models/…), AZURE_OPENAI_ENDPOINT (likewise:
// openai's AzureOpenAI adds /openai/deployments/…) and OPENAI_API_VERSION
// (AzureAPIVersion), ANTHROPIC_VERTEX_BASE_URL (with /v1: the TypeScript
// and Python Vertex SDKs append /projects/…), ANTHROPIC_VERTEX_PROJECT_ID
// (<scenario>--grade, which names the scenario and session to a client
// that makes the path absolute, as anthropic-sdk-go does) and
// CLOUD_ML_REGION (VertexRegion), FAULTBENCH_BASE_URL (as serve prints
// it), FAULTBENCH_SCENARIO, and FAULTBENCH_MODEL,
// FAULTBENCH_FALLBACK_MODEL, FAULTBENCH_WIRE and FAULTBENCH_STREAM from
// the scenario's turn, for a client that wants to follow it.
// ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY and
// AZURE_OPENAI_API_KEY are DummyKey, whatever base sets, and base's other
// credentials are left out (secret); NO_PROXY and no_proxy name the mock's
// host (noProxy).
func Environment(base []string, baseURL string, sc *scenario.Scenario) []string {
	set := map[string]string{
		"ANTHROPIC_BASE_URL":          strings.TrimSuffix(baseURL, "/"),
		"OPENAI_BASE_URL":             baseURL + "v1",
		"GOOGLE_GEMINI_BASE_URL":      strings.TrimSuffix(baseURL, "/"),
		"AZURE_OPENAI_ENDPOINT":       strings.TrimSuffix(baseURL, "/"),
		"OPENAI_API_VERSION":          AzureAPIVersion,
		"ANTHROPIC_VERTEX_BASE_URL":   baseURL + "v1",
		"ANTHROPIC_VERTEX_PROJECT_ID": sc.Name + "--" + Session,
		"CLOUD_ML_REGION":             VertexRegion,
		"FAULTBENCH_BASE_URL":         baseURL,
		"FAULTBENCH_SCENARIO":         sc.Name,
		"FAULTBENCH_MODEL":            sc.Turn.Model,
		"FAULTBENCH_FALLBACK_MODEL":   strings.Join(sc.Turn.Fallback, ","),
		"FAULTBENCH_WIRE":             wireOf(sc),
		"FAULTBENCH_STREAM":           fmt.Sprint(sc.Turn.Stream),
		"NO_PROXY":                    noProxy(base, baseURL),
		"no_proxy":                    noProxy(base, baseURL),
	}
	for _, k := range dummyKeys {
		set[k] = DummyKey
	}
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := set[k]; !over && !secret(k) {
			out = append(out, kv)
		}
	}
	for _, k := range []string{"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "OPENAI_API_VERSION",
		"ANTHROPIC_VERTEX_BASE_URL", "ANTHROPIC_VERTEX_PROJECT_ID", "CLOUD_ML_REGION",
		"FAULTBENCH_BASE_URL", "FAULTBENCH_SCENARIO", "FAULTBENCH_MODEL", "FAULTBENCH_FALLBACK_MODEL", "FAULTBENCH_WIRE", "FAULTBENCH_STREAM",
		"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "AZURE_OPENAI_API_KEY", "NO_PROXY", "no_proxy"} {
		if v, ok := set[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}

func wireOf(sc *scenario.Scenario) string {
	if sc.Turn.Wire == "" {
		return scenario.WireAnthropic
	}
	return sc.Turn.Wire
}

func lookup(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}
