package clientcheck

// docs/sdks.md's table of the official SDKs against the default suite is
// written by TestDefaultSuite. After a change to the scenarios, rewrite it
// (and the README's sample, which cmd/faultbench writes) with:
//
//	go test ./cmd/faultbench/ ./internal/clientcheck/ -run 'Readme|DefaultSuite' -update

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/internal/gendoc"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The default suite runs in real time: a call is given suiteDeadline in
// all (a scenario that asks for a longer wait shows the SDK still waiting)
// and each attempt suiteTimeout (a hang shows the SDK's own timeout).
// openai-go waits a retry-after inside the attempt's timeout, so the
// timeout leaves rate-limit-burst's 10 s wait 5 s for its answers: under
// -race beside other packages, 1 s (an 11 s timeout) was not enough.
const (
	suiteDeadline = 25 * time.Second
	suiteTimeout  = 15 * time.Second
)

var update = flag.Bool("update", false, "rewrite docs/sdks.md's SDK table from this run")

// measured is one scenario × SDK of the default suite.
type measured struct {
	scenario, sdk string
	statuses      []string
	honored       string
	out           outcome
	err           error
	wall          time.Duration
}

// TestDefaultSuite points both SDKs at `faultbench serve scenarios/`: every
// scenario's turn but a workload's, once, streamed when the scenario streams. The journal
// must show every attempt, and each retry or stop must be the SDK's
// documented policy. The table of what each SDK did must be docs/sdks.md's
// generated:sdk-table region (-update rewrites it); with
// FAULTBENCH_MEASURE_OUT set, it is also written there.
func TestDefaultSuite(t *testing.T) {
	scs, err := scenario.Load("../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	// A workload is many callers on one key; the suite is one call of each
	// SDK, which a fleet's answers (seconds of real time each, under serve)
	// would only slow down: the harness measures fleets on virtual time.
	scs = slices.DeleteFunc(scs, func(sc *scenario.Scenario) bool { return !sc.Workload.IsZero() })
	srv, ep, transport := serve(t, scs)
	rows := make([]measured, 0, len(scs)*len(sdks))
	for _, sc := range scs {
		for _, s := range sdks {
			rows = append(rows, measured{scenario: sc.Name, sdk: s.name})
		}
	}
	// The runs go at once, whatever -parallel says: their waits are real.
	var wg sync.WaitGroup
	for i := range rows {
		row := &rows[i]
		sc, s := scs[i/len(sdks)], sdks[i%len(sdks)]
		wg.Go(func() {
			start := time.Now()
			c := call{base: ep.BaseURL(sc.Name), session: s.name, req: harness.Conversation(sc.Turn), stream: sc.Turn.Stream, timeout: suiteTimeout}
			row.out, row.err = measure(srv, transport, s, c, sc.Name, suiteDeadline)
			row.wall = time.Since(start)
			if journal := srv.Entries(sc.Name, s.name); len(journal) > 0 {
				sum := mockllm.Summarize(journal)[0]
				row.statuses = sum.Statuses
				if sum.RetryAfterAsked > 0 {
					row.honored = fmt.Sprintf("%d/%d", sum.RetryAfterHonored, sum.RetryAfterAsked)
				}
			}
		})
	}
	wg.Wait()
	failed := false
	for _, r := range rows {
		if r.err != nil {
			t.Error(r.err)
			failed = true
		}
	}
	if !failed {
		gendoc.Check(t, "../../docs/sdks.md", "sdk-table", markdown(rows), *update,
			"go test ./cmd/faultbench/ ./internal/clientcheck/ -run 'Readme|DefaultSuite' -update")
	}
	if path := os.Getenv("FAULTBENCH_MEASURE_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(markdown(rows)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// markdown writes the measurements as a table, a row per scenario, the
// SDKs side by side.
func markdown(rows []measured) string {
	var b strings.Builder
	b.WriteString("| scenario |")
	for _, s := range sdks {
		fmt.Fprintf(&b, " %s: requests (statuses) | returned |", s.name)
	}
	b.WriteString("\n| --- |")
	for range sdks {
		b.WriteString(" --- | --- |")
	}
	b.WriteString("\n")
	for i := 0; i < len(rows); i += len(sdks) {
		fmt.Fprintf(&b, "| %s |", rows[i].scenario)
		for _, r := range rows[i : i+len(sdks)] {
			fmt.Fprintf(&b, " %d (%s) | %s |", len(r.statuses), strings.Join(r.statuses, " "), r.out)
		}
		b.WriteString("\n")
	}
	return b.String()
}
