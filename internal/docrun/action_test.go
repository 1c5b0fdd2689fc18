package docrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
)

// action is the part of action.yml the test reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID   string            `yaml:"id"`
			Uses string            `yaml:"uses"`
			If   string            `yaml:"if"`
			With map[string]any    `yaml:"with"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// expr is a workflow expression, ${{ ... }}.
var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// runAction runs action.yml's steps as a runner would: each run step in
// `bash --noprofile --norc -eo pipefail`, its env's expressions resolved
// (inputs, the action's path, an earlier step's outputs), with
// GITHUB_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files; a `uses`
// step is not run, only checked to upload the reports. It returns the
// exit code of the first step that fails (0 when none) and the summary.
func runAction(t *testing.T, root, dir string, inputs map[string]string) (int, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using is %q, want composite", a.Runs.Using)
	}
	in := map[string]string{}
	for k, v := range a.Inputs {
		in[k] = v.Default
	}
	for k, v := range inputs {
		if _, ok := a.Inputs[k]; !ok {
			t.Fatalf("action.yml has no input %q", k)
		}
		in[k] = v
	}
	files := map[string]string{}
	for _, f := range []string{"GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		files[f] = filepath.Join(t.TempDir(), f)
		if err := os.WriteFile(files[f], nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outputs := map[string]map[string]string{}
	resolve := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string {
			e := expr.FindStringSubmatch(m)[1]
			switch {
			case strings.HasPrefix(e, "inputs."):
				return in[strings.TrimPrefix(e, "inputs.")]
			case e == "github.action_path":
				return root
			case strings.HasPrefix(e, "steps."):
				p := strings.Split(e, ".") // steps.ID.outputs.NAME
				return outputs[p[1]][p[3]]
			}
			t.Fatalf("action.yml: an expression the test cannot resolve: %s", m)
			return ""
		})
	}
	runnerTemp := t.TempDir()
	for i, st := range a.Runs.Steps {
		if st.Uses != "" {
			if strings.HasPrefix(st.Uses, "actions/upload-artifact@") && resolve(st.With["path"].(string)) != in["reports"] {
				t.Errorf("step %d uploads %v, not the reports folder %s", i, st.With["path"], in["reports"])
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
		cmd.Dir = dir
		path := os.Getenv("PATH")
		if added, _ := os.ReadFile(files["GITHUB_PATH"]); len(added) > 0 {
			path = strings.Join(strings.Fields(string(added)), ":") + ":" + path
		}
		cmd.Env = append(os.Environ(), "PATH="+path, "RUNNER_TEMP="+runnerTemp)
		for k, f := range files {
			cmd.Env = append(cmd.Env, k+"="+f)
		}
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+resolve(v))
		}
		if err := os.WriteFile(files["GITHUB_OUTPUT"], nil, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := cmd.CombinedOutput()
		cancel()
		if st.ID != "" {
			outputs[st.ID] = map[string]string{}
			o, _ := os.ReadFile(files["GITHUB_OUTPUT"])
			for _, l := range strings.Split(string(o), "\n") {
				if k, v, ok := strings.Cut(l, "="); ok {
					outputs[st.ID][k] = v
				}
			}
		}
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("step %d: %v\n%s", i, err, out)
			}
			summary, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
			return ee.ExitCode(), string(summary)
		}
	}
	summary, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
	return 0, string(summary)
}

// TestActionStepsRunAsWritten runs action.yml's steps: a run whose
// budgets hold, one whose budget breaks (exit 1, as faultbench run
// --check), and a command that is neither run nor grade (exit 2).
func TestActionStepsRunAsWritten(t *testing.T) {
	if os.Getenv("FAULTBENCH_DOCS") == "" {
		t.Skip("set FAULTBENCH_DOCS=1 to run the action's steps (go install; .ci/run does)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "scenarios", "rate-limit-burst.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "scenarios"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scenarios", "burst.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, summary := runAction(t, root, dir, map[string]string{"strategies": "blind,classify"})
	if code != 0 || !strings.HasPrefix(summary, "## faultbench: 1 scenario, 2 strategies, seed 1") || !strings.Contains(summary, "every budget holds") {
		t.Fatalf("exit %d, summary:\n%s", code, summary)
	}
	if _, err := os.Stat(filepath.Join(dir, "faultbench-reports", "report.json")); err != nil {
		t.Fatalf("the JSON report: %v", err)
	}

	broken := strings.Replace(string(src), `blind: {outcome: success, attempts: "== 5"`, `blind: {outcome: success, attempts: "== 4"`, 1)
	if broken == string(src) {
		t.Fatal("rate-limit-burst.yaml's budget for blind moved: update this test")
	}
	if err := os.WriteFile(filepath.Join(dir, "scenarios", "burst.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, summary := runAction(t, root, dir, map[string]string{"strategies": "blind,classify", "reports": "out"}); code != 1 || !strings.Contains(summary, "attempts") {
		t.Fatalf("a broken budget: exit %d, want 1; summary:\n%s", code, summary)
	}
	if code, _ := runAction(t, root, dir, map[string]string{"command": "nope"}); code != 2 {
		t.Fatalf("command nope: exit %d, want 2", code)
	}
}
