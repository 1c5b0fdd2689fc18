package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/fakeclient"
)

// gradePack writes a pack of the built-in pack's files named into a
// temporary folder.
func gradePack(t *testing.T, names ...string) string {
	t.Helper()
	all := t.TempDir()
	var out, errOut bytes.Buffer
	if code := mainContext(context.Background(), []string{"grade", "--write-pack", all}, &out, &errOut); code != exitOK {
		t.Fatalf("--write-pack: exit %d: %s", code, errOut.String())
	}
	dir := t.TempDir()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(all, n+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n+".yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// grade runs faultbench grade with the test binary as the fake client of
// the policy.
func gradeWith(t *testing.T, policy string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv(fakeclient.Env, policy)
	var out, errOut bytes.Buffer
	args = append([]string{"grade", "--strategies", "classify,sdk-anthropic", "--timeout", "5s"}, args...)
	code := mainContext(context.Background(), append(args, "--", os.Args[0]), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestGradeChecksAClientThatRetriesA400(t *testing.T) {
	dir := gradePack(t, "invalid-request", "permission-denied")
	code, out, errOut := gradeWith(t, "naive", "--check", "--pack", dir)
	if code != exitFailed {
		t.Fatalf("exit %d, want %d: %s%s", code, exitFailed, out, errOut)
	}
	for _, want := range []string{"== report card: ", "| permanent | invalid-request", "FAIL", "asked primary 11 more times after the 400 invalid_request, 11 of them the same body again",
		"== summary: single turns ==", "| client "} {
		if !strings.Contains(out, want) {
			t.Errorf("the card lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2 failed checks; 1 broken budget of the client") {
		t.Errorf("stderr: %s", errOut)
	}
	// Without --check the same card is printed, and the exit is 0.
	if code, _, errOut := gradeWith(t, "naive", "--pack", dir); code != exitOK {
		t.Errorf("without --check: exit %d: %s", code, errOut)
	}
}

func TestGradePassesAGoodClient(t *testing.T) {
	dir := gradePack(t, "invalid-request", "server-error-transient")
	code, out, errOut := gradeWith(t, "good", "--check", "--pack", dir, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var rep struct {
		Results []struct{ Scenario, Strategy, Outcome string }
		Grade   struct {
			Findings []struct{ Check, Scenario, Status string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rep.Grade.Findings) != 2 {
		t.Fatalf("findings: %+v", rep.Grade.Findings)
	}
	for _, f := range rep.Grade.Findings {
		if f.Status != "pass" {
			t.Errorf("%+v", f)
		}
	}
	clients := 0
	for _, r := range rep.Results {
		if r.Strategy == "client" {
			clients++
		}
	}
	if len(rep.Results) != 6 || clients != 2 {
		t.Errorf("results: %+v", rep.Results)
	}
}

// bestOutcomes grades the client of the policy on the pack's scenarios
// named, as JSON, and returns each scenario's best_outcome list.
func bestOutcomes(t *testing.T, policy string, names ...string) map[string][]string {
	t.Helper()
	code, out, errOut := gradeWith(t, policy, "--pack", gradePack(t, names...), "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var rep struct {
		Verdicts []struct {
			Scenario string
			Best     []string `json:"best_outcome"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	best := map[string][]string{}
	for _, v := range rep.Verdicts {
		best[v.Scenario] = v.Best
	}
	return best
}

// Where the right answer is to stop, the best outcome is a prompt stop:
// a client that stops at once ties the presets that do (its own tiny
// prompt is billed as the declared turn, so it does not win on tokens),
// and one that retries the refusal never reaches the best outcome.
func TestGradeRanksAPromptStopBestOnARefusal(t *testing.T) {
	refusals := []string{"invalid-request", "quota-exhausted", "should-retry-false"}
	for sc, best := range bestOutcomes(t, "good", refusals...) {
		if !slices.Contains(best, "client") || !slices.Contains(best, "classify") {
			t.Errorf("%s: a client that stops at once, as classify does: best outcome %v, want both", sc, best)
		}
	}
	best := bestOutcomes(t, "naive", refusals...)
	if len(best) != len(refusals) {
		t.Fatalf("verdicts: %v", best)
	}
	for sc, b := range best {
		if slices.Contains(b, "client") {
			t.Errorf("%s: a client that retried the refusal 11 times reached the best outcome %v", sc, b)
		}
	}
}

// The presets beside the client stream on the OpenAI wire too: on a
// Chat Completions stream cut after its 200, the SDK preset gives up as
// the SDK does, and classify restarts the turn.
func TestGradeStreamsThePresetsOnOpenAI(t *testing.T) {
	t.Setenv(fakeclient.Env, "good")
	var out, errOut bytes.Buffer
	args := []string{"grade", "--strategies", "classify,sdk-openai", "--timeout", "5s", "--format", "json",
		"--pack", gradePack(t, "stream-cut-openai"), "--", os.Args[0]}
	if code := mainContext(context.Background(), args, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	var rep struct {
		Results []struct {
			Strategy, Outcome string
			Attempts          int
			AttemptsLog       []struct{ Kind string } `json:"attempts_log"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rep.Results {
		kinds := []string{}
		for _, a := range r.AttemptsLog {
			kinds = append(kinds, a.Kind)
		}
		got[r.Strategy] = fmt.Sprintf("%s %d %v", r.Outcome, r.Attempts, kinds)
	}
	for s, want := range map[string]string{"classify": "success 2 [connection ok]", "sdk-openai": "failed 1 [connection]"} {
		if got[s] != want {
			t.Errorf("%s: %q, want %q (all: %v)", s, got[s], want, got)
		}
	}
}

// A client that sends no request is no cheapest stop: it did not run the
// scenario, and the report has no cell of it to rank.
func TestGradeRanksNoClientThatSentNothing(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"grade", "--strategies", "classify", "--timeout", "5s", "--format", "json",
		"--pack", gradePack(t, "invalid-request"), "--", "true"}
	if code := mainContext(context.Background(), args, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	var rep struct {
		Results  []struct{ Strategy string }
		Verdicts []struct {
			Best []string `json:"best_outcome"`
		}
		Grade struct {
			Runs []struct{ Attempts int }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Verdicts) != 1 || !slices.Equal(rep.Verdicts[0].Best, []string{"classify"}) {
		t.Errorf("verdicts: %+v", rep.Verdicts)
	}
	for _, r := range rep.Results {
		if r.Strategy == "client" {
			t.Errorf("a result for a client that sent nothing: %+v", rep.Results)
		}
	}
	if len(rep.Grade.Runs) != 1 || rep.Grade.Runs[0].Attempts != 0 {
		t.Errorf("the card's runs: %+v", rep.Grade.Runs)
	}
}

func TestGradeNeedsACommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := mainContext(context.Background(), []string{"grade"}, &out, &errOut); code != exitBadInput {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "give the client after --") {
		t.Errorf("stderr: %s", errOut.String())
	}
}
