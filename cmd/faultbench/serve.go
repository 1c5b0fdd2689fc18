package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// defaultServeAddr is where serve listens unless --addr says otherwise:
// loopback only.
const defaultServeAddr = "127.0.0.1:8080"

type serveFlags struct {
	addr    string
	empty   bool     // --empty: no scenario file; tests add them over the admin route
	aliases []string // --model-alias FROM=TO, repeatable
	root    string   // --default-scenario NAME: the scenario of paths that name none
	limits  mockllm.Limits
	profile profileFlags
}

func newServeCmd(stdout, stderr io.Writer) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [PATH...]",
		Short: "Serve the mock LLM for any client: one base URL per scenario, the journal as a ledger",
		Long: `serve starts the mock LLM (default scenarios/) and prints each scenario's base URL.
Anthropic clients post to <base>v1/messages (and v1/messages/count_tokens), OpenAI clients
to <base>v1/chat/completions or <base>v1/responses (an OpenAI SDK's base URL is <base>v1/), Gemini
clients to <base>v1beta/models/MODEL:generateContent (:streamGenerateContent?alt=sse, :countTokens;
a key in x-goog-api-key or ?key=). Each X-Faultbench-Session header value has its
own script state and start; time is real. The journal is at GET /_faultbench/journal,
POST /_faultbench/reset clears it; Ctrl-C stops and prints it as a ledger table.
A test declares a scenario in code with POST /_faultbench/scenarios (YAML or JSON,
checked as a file is; the answer names its base URLs) and removes it with DELETE
/_faultbench/scenarios/NAME; --empty serves no file, only those.

Each scenario's line names the models it serves; any other model is a 404 in the
API's shape that lists them. --model-alias FROM=TO serves the model name FROM as
TO in every scenario that serves TO, so a client keeps its real model name
(--model-alias claude-sonnet-4-5=primary); FROM "any" matches every other name
(--model-alias any=primary). A scenario's own aliases: block comes first. The
journal shows the name the client sent.

Amazon Bedrock clients post to <base>model/MODEL/invoke (and invoke-with-response-stream).
A client whose SDK makes that path absolute, dropping its endpoint's path
(anthropic-sdk-go's bedrock option, @anthropic-ai/bedrock-sdk), names no scenario:
--default-scenario NAME serves NAME at the paths that name none.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return profiled(f.profile, func() error { return runServe(cmd.Context(), stdout, stderr, f, args, nil) })
		},
	}
	cmd.Flags().StringVar(&f.addr, "addr", defaultServeAddr, "host:port to listen on (port 0: any free port)")
	cmd.Flags().BoolVar(&f.empty, "empty", false, "serve no scenario file, only the scenarios tests post to /_faultbench/scenarios")
	cmd.Flags().StringArrayVar(&f.aliases, "model-alias", nil, "serve model name FROM as model TO, as FROM=TO (repeatable; FROM \"any\": every other name)")
	cmd.Flags().StringVar(&f.root, "default-scenario", "", "serve scenario NAME at paths that name no scenario (/model/MODEL/invoke, as Bedrock clients with an absolute path send)")
	d := mockllm.DefaultLimits
	cmd.Flags().DurationVar(&f.limits.ReadHeaderTimeout, "read-header-timeout", d.ReadHeaderTimeout, "time a client has to send a request's headers (real time; 0: none)")
	cmd.Flags().DurationVar(&f.limits.ReadTimeout, "read-timeout", d.ReadTimeout, "time a client has to send a whole request, headers and body (real time; 0: none)")
	cmd.Flags().DurationVar(&f.limits.IdleTimeout, "idle-timeout", d.IdleTimeout, "how long a keep-alive connection may wait for its next request (0: none)")
	cmd.Flags().DurationVar(&f.limits.WriteStall, "write-stall-timeout", d.WriteStall, "how long one write of an answer may block on a client that does not read before it is hung up on (0: none)")
	cmd.Flags().IntVar(&f.limits.MaxConns, "max-conns", d.MaxConns, "most connections served at once; more wait to be accepted (0: no limit)")
	f.profile.register(cmd.Flags())
	return cmd
}

// runServe serves until ctx ends (Ctrl-C, or SIGTERM), then shuts down
// gracefully and prints the journal. ready, when not nil, receives the
// address bound once the server takes requests.
func runServe(ctx context.Context, stdout, stderr io.Writer, f serveFlags, args []string, ready chan<- string) (err error) {
	var scs []*scenario.Scenario
	if f.empty {
		if len(args) > 0 {
			return bad(fmt.Errorf("--empty serves no scenario file, yet %s was given", strings.Join(args, ", ")))
		}
	} else if scs, _, err = loadScenarios(stderr, args); err != nil {
		return err
	}
	if host, _, err := net.SplitHostPort(f.addr); err != nil {
		return bad(fmt.Errorf("--addr: %w", err))
	} else if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "faultbench serve: warning: %s is not a loopback address; the mock is open to the network\n", host)
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()

	aliases, err := parseAliases(f.aliases, scs)
	if err != nil {
		return err
	}
	if f.limits.ReadHeaderTimeout < 0 || f.limits.ReadTimeout < 0 || f.limits.IdleTimeout < 0 || f.limits.WriteStall < 0 || f.limits.MaxConns < 0 {
		return bad(fmt.Errorf("--read-header-timeout, --read-timeout, --idle-timeout, --write-stall-timeout and --max-conns must not be negative"))
	}
	if f.root != "" && !f.empty && !slices.ContainsFunc(scs, func(sc *scenario.Scenario) bool { return sc.Name == f.root }) {
		return bad(fmt.Errorf("--default-scenario %q: no scenario of that name is served", f.root))
	}
	srv := mockllm.New(scs, mockllm.RealClock{}, mockllm.WithAliases(aliases), mockllm.WithDefaultScenario(f.root))
	ep, err := mockllm.StartLimited(srv, f.addr, f.limits)
	if err != nil {
		return bad(fmt.Errorf("--addr: %w", err))
	}
	width, urlWidth := 0, 0
	for _, sc := range scs {
		width, urlWidth = max(width, len(sc.Name)), max(urlWidth, len(ep.BaseURL(sc.Name)))
	}
	for _, sc := range scs {
		fmt.Fprintf(stdout, "%-*s  %-*s  %s\n", width, sc.Name, urlWidth, ep.BaseURL(sc.Name), servedModels(sc, aliases))
	}
	fmt.Fprintf(stderr, "faultbench serve: %d scenarios on http://%s — journal: GET http://%s%s, reset: POST http://%s%s, add a scenario: POST http://%s%s; Ctrl-C to stop\n",
		len(scs), ep.Addr, ep.Addr, mockllm.JournalPath, ep.Addr, mockllm.ResetPath, ep.Addr, mockllm.ScenariosPath)
	if ready != nil {
		ready <- ep.Addr
	}

	<-ctx.Done()
	closeErr := ep.Close()
	var buf bytes.Buffer
	sums := mockllm.Summarize(srv.Journal())
	sessions := make([]reports.Session, len(sums))
	for i, s := range sums {
		sessions[i] = reports.Session(s)
	}
	if err := reports.Journal(&buf, sessions); err != nil {
		return err
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	return closeErr
}

// parseAliases reads --model-alias FROM=TO flags; a malformed one, or one
// whose TO no scenario serves, is bad input.
func parseAliases(flags []string, scs []*scenario.Scenario) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		from, to, ok := strings.Cut(f, "=")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if !ok || from == "" || to == "" {
			return nil, bad(fmt.Errorf("--model-alias %q: want FROM=TO, such as any=primary or claude-sonnet-4-5=primary", f))
		}
		if prev, dup := out[from]; dup && prev != to {
			return nil, bad(fmt.Errorf("--model-alias %q: %s is already aliased to %s", f, from, prev))
		}
		served := false
		for _, sc := range scs {
			_, has := sc.Models[to]
			served = served || has
		}
		if !served {
			return nil, bad(fmt.Errorf("--model-alias %q: no scenario serves a model %q", f, to))
		}
		out[from] = to
	}
	return out, nil
}

// servedModels says what a client may send to sc: its models and, after
// "also", the aliases that apply to it (the scenario's, then the flags').
func servedModels(sc *scenario.Scenario, flags map[string]string) string {
	line := "models: " + strings.Join(slices.Sorted(maps.Keys(sc.Models)), ", ")
	var also []string
	seen := map[string]bool{}
	for _, aliases := range []map[string]string{sc.Aliases, flags} {
		for _, from := range slices.Sorted(maps.Keys(aliases)) {
			to := aliases[from]
			if _, ok := sc.Models[to]; !ok || seen[from] {
				continue
			}
			if _, ok := sc.Models[from]; ok {
				continue
			}
			seen[from] = true
			also = append(also, from+"->"+to)
		}
	}
	if len(also) > 0 {
		line += "; also " + strings.Join(also, ", ")
	}
	return line
}
