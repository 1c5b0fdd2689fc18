package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/reports"
)

// defaultServeAddr is where serve listens unless --addr says otherwise:
// loopback only.
const defaultServeAddr = "127.0.0.1:8080"

type serveFlags struct {
	addr string
}

func newServeCmd(stdout, stderr io.Writer) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [PATH...]",
		Short: "Serve the mock LLM for any client: one base URL per scenario, the journal as a ledger",
		Long: `serve starts the mock LLM (default scenarios/) and prints each scenario's base URL.
Anthropic clients post to <base>v1/messages (and v1/messages/count_tokens), OpenAI clients
to <base>v1/chat/completions or <base>v1/responses (an OpenAI SDK's base URL is <base>v1/). Each X-Faultbench-Session header value has its
own script state and start; time is real. The journal is at GET /_faultbench/journal,
POST /_faultbench/reset clears it; Ctrl-C stops and prints it as a ledger table.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd.Context(), stdout, stderr, f, args, nil)
		},
	}
	cmd.Flags().StringVar(&f.addr, "addr", defaultServeAddr, "host:port to listen on (port 0: any free port)")
	return cmd
}

// runServe serves until ctx ends (Ctrl-C, or SIGTERM), then shuts down
// gracefully and prints the journal. ready, when not nil, receives the
// address bound once the server takes requests.
func runServe(ctx context.Context, stdout, stderr io.Writer, f serveFlags, args []string, ready chan<- string) error {
	scs, err := loadScenarios(args)
	if err != nil {
		return err
	}
	if host, _, err := net.SplitHostPort(f.addr); err != nil {
		return bad(fmt.Errorf("--addr: %w", err))
	} else if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "faultbench serve: warning: %s is not a loopback address; the mock is open to the network\n", host)
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()

	srv := mockllm.New(scs, clock.Real{})
	ep, err := mockllm.Start(srv, f.addr)
	if err != nil {
		return bad(fmt.Errorf("--addr: %w", err))
	}
	width := 0
	for _, sc := range scs {
		width = max(width, len(sc.Name))
	}
	for _, sc := range scs {
		fmt.Fprintf(stdout, "%-*s  %s\n", width, sc.Name, ep.BaseURL(sc.Name))
	}
	fmt.Fprintf(stderr, "faultbench serve: %d scenarios on http://%s — journal: GET http://%s%s, reset: POST http://%s%s; Ctrl-C to stop\n",
		len(scs), ep.Addr, ep.Addr, mockllm.JournalPath, ep.Addr, mockllm.ResetPath)
	if ready != nil {
		ready <- ep.Addr
	}

	<-ctx.Done()
	closeErr := ep.Close()
	var buf bytes.Buffer
	if err := reports.Journal(&buf, mockllm.Summarize(srv.Journal())); err != nil {
		return err
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	return closeErr
}
