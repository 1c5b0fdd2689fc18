package docrun

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// command is one command a doc shows: where, its text (continuation lines
// joined as written), and in a "$ " block the lines shown after it.
type command struct {
	file string
	line int
	text string
	out  []string
	// inline: a command in a line of prose, not in a block.
	inline bool
}

// block is a doc's shell block: its commands, run in order in one shell.
type block struct {
	file string
	line int
	cmds []command
}

var (
	// inline is a command in a line of prose: `faultbench run --hindsight`.
	inline   = regexp.MustCompile("`(faultbench [^`]+)`")
	fence    = regexp.MustCompile("^```(sh|bash|shell|console)\\s*$")
	indented = regexp.MustCompile(`^    ((FAULTBENCH_\w+=\S+\s+)*(go|faultbench|curl)\s.*)$`)
)

// blocks reads the shell blocks of a Markdown file: fenced sh, bash, shell
// and console blocks, indented blocks whose first line is a go,
// faultbench or curl command, and the `run:` steps of a YAML block that
// is a CI workflow (workflow).
func blocks(t *testing.T, root, file string) []block {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		switch {
		case fence.MatchString(lines[i]):
			start := i + 1
			j := start
			for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
				j++
			}
			out = append(out, parse(file, start+1, lines[start:j]))
			i = j
		case workflowFence.MatchString(lines[i]):
			start := i + 1
			j := start
			for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
				j++
			}
			if bl, ok := workflow(t, file, start+1, lines[start:j]); ok {
				out = append(out, bl)
			}
			i = j
		case strings.HasPrefix(lines[i], "```"):
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			}
		case indented.MatchString(lines[i]) && (i == 0 || strings.TrimSpace(lines[i-1]) == ""):
			start := i
			var body []string
			for ; i < len(lines) && strings.HasPrefix(lines[i], "    "); i++ {
				body = append(body, strings.TrimPrefix(lines[i], "    "))
			}
			out = append(out, parse(file, start+1, body))
		default:
			for _, m := range inline.FindAllStringSubmatch(lines[i], -1) {
				if whole(m[1]) {
					out = append(out, block{file: file, line: i + 1, cmds: []command{{file: file, line: i + 1, text: m[1], inline: true}}})
				}
			}
		}
	}
	return out
}

// placeholder is what marks an inline span as a command's form rather
// than a command: FILE, [--flag], <commit>, a|b, "...".
var placeholder = regexp.MustCompile(`\b[A-Z][A-Z_]*\b|\.\.\.|…|[\[<|]`)

// whole reports whether an inline span is a command as a reader would
// type it: faultbench, a subcommand and at least one argument, and no
// placeholder.
func whole(text string) bool {
	return len(strings.Fields(text)) >= 3 && !placeholder.MatchString(text)
}

// parse splits a block's lines into commands. With "$ " prompts, each
// prompt line is a command and the lines up to the next are what it
// prints; without, every line is script, a command running on over lines
// that end in \, |, && or || and through for/while/if to done/fi.
func parse(file string, first int, lines []string) block {
	bl := block{file: file, line: first}
	prompted := false
	for _, l := range lines {
		prompted = prompted || strings.HasPrefix(l, "$ ")
	}
	var cur *command
	depth := 0
	for k, l := range lines {
		n := first + k
		if prompted {
			if text, ok := strings.CutPrefix(l, "$ "); ok {
				bl.cmds = append(bl.cmds, command{file: file, line: n, text: text})
				cur = &bl.cmds[len(bl.cmds)-1]
			} else if cur != nil {
				cur.out = append(cur.out, l)
			}
			continue
		}
		trimmed := strings.TrimSpace(l)
		if cur == nil && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if cur == nil {
			bl.cmds = append(bl.cmds, command{file: file, line: n, text: l})
			cur = &bl.cmds[len(bl.cmds)-1]
		} else {
			cur.text += "\n" + l
		}
		word, _, _ := strings.Cut(trimmed, " ")
		switch strings.TrimSuffix(word, ";") {
		case "for", "while", "until", "if":
			depth++
		case "done", "fi":
			depth--
		}
		code, _, _ := strings.Cut(trimmed, " #")
		code = strings.TrimSpace(code)
		if depth == 0 && !strings.HasSuffix(code, `\`) && !strings.HasSuffix(code, "|") &&
			!strings.HasSuffix(code, "&&") && !strings.HasSuffix(code, "||") {
			cur = nil
		}
	}
	return bl
}

// docs are the files whose commands run: the README and every doc.
func docs(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range more {
		rel, _ := filepath.Rel(root, f)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

func skipOf(c command) (string, bool) {
	for _, s := range skips {
		if s.file == c.file && strings.Contains(c.text, s.match) {
			return s.why, true
		}
	}
	return "", false
}

func exitOf(c command) int {
	for _, e := range exits {
		if e.file == c.file && strings.Contains(c.text, e.match) {
			return e.code
		}
	}
	return 0
}

func rewrite(text string) string {
	for _, r := range rewrites {
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	return text
}

// isServe is the command that starts serve: the test runs serve itself
// and compares its listing with what the docs show.
func isServe(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "faultbench serve ")
}

// TestDocsCommandsRunAsWritten runs every command of README.md and
// docs/*.md that the skip list does not name (package doc).
func TestDocsCommandsRunAsWritten(t *testing.T) {
	if os.Getenv("FAULTBENCH_DOCS") == "" {
		t.Skip("set FAULTBENCH_DOCS=1 to run the docs' commands (minutes; .ci/run does)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "faultbench"), "./cmd/faultbench")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, r := range rewrites {
		t.Logf("rewrite %q → %q: %s", r.old, r.new, r.why)
	}
	used := map[int]bool{}
	var ran atomic.Int64
	// Each doc runs in a folder of its own, beside the others (t.Parallel
	// within the group, which ends when they all have).
	t.Run("docs", func(t *testing.T) {
		for _, file := range docs(t, root) {
			var bls []block
			needsServer := false
			for _, bl := range blocks(t, root, file) {
				var kept []command
				for _, c := range bl.cmds {
					if why, ok := skipOf(c); ok {
						for i, s := range skips {
							if s.file == c.file && strings.Contains(c.text, s.match) {
								used[i] = true
							}
						}
						t.Logf("skip %s:%d %s — %s", c.file, c.line, firstLine(c.text), why)
						continue
					}
					kept = append(kept, c)
					needsServer = needsServer || strings.Contains(c.text, "127.0.0.1:8080") || isServe(rewrite(c.text))
				}
				if len(kept) > 0 {
					bl.cmds = kept
					bls = append(bls, bl)
				}
			}
			if len(bls) == 0 {
				continue
			}
			t.Run(file, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				runIn(t, dir, bin, root, "", "faultbench init")
				if usesBaseline(bls) {
					// The committed baseline a workflow compares with: this
					// checkout's own run, so that the gate passes as the
					// docs say it does.
					t.Logf("setup %s: %s", file, baselineSetup)
					runIn(t, dir, bin, root, "", baselineSetup)
				}
				var addr string
				var listing []string
				if needsServer {
					addr, listing = serve(t, dir, bin)
				}
				for _, bl := range bls {
					runBlock(t, dir, bin, root, addr, listing, bl)
					ran.Add(int64(len(bl.cmds)))
				}
			})
		}
	})
	for i, s := range skips {
		if !used[i] {
			t.Errorf("skip %q in %s matches no command: drop it from the list", s.match, s.file)
		}
	}
	t.Logf("%d commands run as written", ran.Load())
}

// baselineSetup writes the baseline the docs' workflow names.
const baselineSetup = "mkdir -p .faultbench && faultbench run scenarios/ --format json --out .faultbench/baseline.json"

// usesBaseline reports whether a command of bls reads the committed
// baseline.
func usesBaseline(bls []block) bool {
	for _, bl := range bls {
		for _, c := range bl.cmds {
			if strings.Contains(c.text, ".faultbench/baseline.json") {
				return true
			}
		}
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// env is the environment the docs' commands run in.
func env(bin, root, addr string) []string {
	return append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FAULTBENCH_BIN="+bin, "FAULTBENCH_REPO="+root, "FAULTBENCH_ADDR="+addr,
		// A workflow's step summary, which the docs' CI job appends to.
		"GITHUB_STEP_SUMMARY="+os.DevNull)
}

// runIn runs one shell command in dir, bounded, and fails the test unless
// it exits 0.
func runIn(t *testing.T, dir, bin, root, addr, script string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env(bin, root, addr)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, tail(out))
	}
}

// runBlock runs a block's commands in one bash, in order, each required
// to exit as the docs say; a serve command is instead compared with the
// running server's listing.
func runBlock(t *testing.T, dir, bin, root, addr string, listing []string, bl block) {
	t.Helper()
	var script strings.Builder
	script.WriteString("set -u -o pipefail\n")
	// Each curl also says on standard error the status it got, which the
	// docs' commands do not read (their output is theirs), so that a
	// request the docs show is known to reach a scenario and a model.
	script.WriteString("curl() { command curl -w '%{stderr}docrun-status %{http_code}\\n' \"$@\"; }\n")
	for _, c := range bl.cmds {
		text := rewrite(c.text)
		if isServe(text) {
			if c.inline {
				// A serve named in prose shows no listing: the test's
				// own serve of the folder has started it.
				t.Logf("skip %s:%d %s — serve in prose, with no listing to check", c.file, c.line, text)
				continue
			}
			checkListing(t, c, addr, listing)
			continue
		}
		want := exitOf(c)
		fmt.Fprintf(&script, "%s\nrc=$?\nif [ $rc -ne %d ]; then echo \"docrun: %s:%d exited $rc, the docs say %d\" >&2; exit 97; fi\n",
			text, want, c.file, c.line, want)
		t.Logf("run %s:%d %s (exit %d)", c.file, c.line, firstLine(c.text), want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir, cmd.Env = dir, env(bin, root, addr)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s:%d: %v\n%s", bl.file, bl.line, err, tail(out))
	}
	for _, m := range curlStatus.FindAllStringSubmatch(string(out), -1) {
		switch m[1] {
		case "000", "400", "404", "405":
			t.Errorf("%s:%d: a curl of the block got %s: the request the docs show is not one the server takes\n%s", bl.file, bl.line, m[1], tail(out))
		}
	}
}

// curlStatus is what the curl wrapper says of each request.
var curlStatus = regexp.MustCompile(`docrun-status (\d{3})`)

// serve starts `faultbench serve --addr 127.0.0.1:0 scenarios/` in dir and
// returns its address and the lines it printed, once it is listening; the
// server is stopped when the test ends.
func serve(t *testing.T, dir, bin string) (string, []string) {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "serve.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(filepath.Join(bin, "faultbench"), "serve", "--addr", "127.0.0.1:0", "scenarios/")
	// The listing goes to a file: serve writes it before the line on
	// standard error that says it listens, so that line means it is all
	// there.
	cmd.Dir, cmd.Stdout = dir, out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done // bounded: a killed process ends, and Wait with it
		}
	})
	got := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		addrOf := regexp.MustCompile(`scenarios on http://(127\.0\.0\.1:\d+)`)
		sent := false
		for sc.Scan() {
			if m := addrOf.FindStringSubmatch(sc.Text()); m != nil && !sent {
				got <- m[1]
				sent = true
			}
		}
		if !sent {
			got <- ""
		}
	}()
	select {
	case addr := <-got:
		if addr == "" {
			t.Fatal("serve ended before it listened")
		}
		b, err := os.ReadFile(out.Name())
		if err != nil {
			t.Fatal(err)
		}
		return addr, strings.Split(strings.TrimSpace(string(b)), "\n")
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not listen within 30 s")
	}
	return "", nil
}

// checkListing requires every line the docs show after `faultbench
// serve` (but "...") among the lines the server printed, with its address
// for 127.0.0.1:8080 and any run of spaces as one.
func checkListing(t *testing.T, c command, addr string, listing []string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range listing {
		have[strings.Join(strings.Fields(l), " ")] = true
	}
	t.Logf("check %s:%d %s: the listing", c.file, c.line, firstLine(c.text))
	for _, l := range c.out {
		if strings.TrimSpace(l) == "..." || strings.TrimSpace(l) == "" {
			continue
		}
		want := strings.Join(strings.Fields(strings.ReplaceAll(l, "127.0.0.1:8080", addr)), " ")
		if !have[want] {
			t.Errorf("%s:%d: serve does not print %q; it prints:\n%s", c.file, c.line, l, strings.Join(listing, "\n"))
		}
	}
}

// tail is the end of a command's output, enough to see why it failed.
func tail(b []byte) string {
	const keep = 4000
	if len(b) > keep {
		return "…" + string(b[len(b)-keep:])
	}
	return string(b)
}
