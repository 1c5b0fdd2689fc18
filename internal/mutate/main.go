package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
)

// Mutant is one realistic bug: replace the one occurrence of Find in File
// with Replace, and the tests in Test must fail.
type Mutant struct {
	Name    string   `yaml:"name"`
	Bug     string   `yaml:"bug"`     // what a person would have got wrong, in a line
	File    string   `yaml:"file"`    // relative to the module root
	Find    string   `yaml:"find"`    // exact text; must occur exactly once
	Replace string   `yaml:"replace"` // what it becomes
	Test    []string `yaml:"test"`    // arguments of go test: packages, then flags such as -run
	// Equivalent, when set, says why the mutant cannot be told apart from
	// the original: it is applied and run, but survival is not a failure.
	Equivalent string `yaml:"equivalent"`
}

// verdict is what running one mutant showed.
type verdict struct {
	m       Mutant
	killed  bool
	problem string // a snippet not found once, a build failure: the list is wrong
	took    time.Duration
	output  string
}

func main() {
	list := flag.String("list", "internal/mutate/mutants.yaml", "the mutant list")
	only := flag.String("only", "", "run only the mutants whose name contains one of these (comma-separated)")
	dir := flag.String("dir", "", "run only the mutants of files in these folders, not their subfolders (comma-separated: recovery,mockllm/internal/wire)")
	files := flag.Bool("files", false, "print the mutants per file and the files with logic that have none, run nothing")
	parallel := flag.Int("p", 2, "mutants at once (each on its own copy of the module)")
	timeout := flag.Duration("timeout", 3*time.Minute, "the longest one mutant's tests may run")
	flag.Parse()
	if *files {
		code, err := report(os.Stdout, *list)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutate:", err)
		}
		os.Exit(code)
	}
	code, err := run(os.Stdout, *list, *only, *dir, *parallel, *timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
	}
	os.Exit(code)
}

// load reads a mutant list.
func load(list string) ([]Mutant, error) {
	data, err := os.ReadFile(list)
	if err != nil {
		return nil, err
	}
	var mutants []Mutant
	if err := yaml.Unmarshal(data, &mutants); err != nil {
		return nil, fmt.Errorf("%s: %w", list, err)
	}
	return mutants, nil
}

// report prints the mutants per file, then the files of the Covered
// folders that hold a branch and no mutant; it exits 1 when there is one.
func report(out io.Writer, list string) (int, error) {
	mutants, err := load(list)
	if err != nil {
		return 2, err
	}
	counts := perFile(mutants)
	var names []string
	for f := range counts {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		fmt.Fprintf(out, "%4d  %s\n", counts[f], f)
	}
	missing, err := uncovered(".", mutants)
	if err != nil {
		return 2, err
	}
	fmt.Fprintf(out, "\n%d mutants in %d files", len(mutants), len(names))
	if len(missing) == 0 {
		fmt.Fprintf(out, "; every file with logic in %s has one\n", strings.Join(Covered, ", "))
		return 0, nil
	}
	fmt.Fprintf(out, "; %d files with logic have none:\n", len(missing))
	for _, f := range missing {
		fmt.Fprintf(out, "      %s\n", f)
	}
	return 1, nil
}

// choose is the mutants whose name contains one of the comma-separated
// parts of only and whose file is in one of the comma-separated folders
// of dirs; an empty only or dirs takes every mutant.
func choose(mutants []Mutant, only, dirs string) []Mutant {
	var chosen []Mutant
	for _, m := range mutants {
		named := slices.ContainsFunc(strings.Split(only, ","), func(part string) bool { return strings.Contains(m.Name, part) })
		in := dirs == "" || slices.ContainsFunc(strings.Split(dirs, ","), func(d string) bool {
			return path.Dir(m.File) == path.Clean(strings.TrimSpace(d))
		})
		if named && in {
			chosen = append(chosen, m)
		}
	}
	return chosen
}

func run(out io.Writer, list, only, dirs string, parallel int, timeout time.Duration) (int, error) {
	mutants, err := load(list)
	if err != nil {
		return 2, err
	}
	chosen := choose(mutants, only, dirs)
	if len(chosen) == 0 {
		return 2, fmt.Errorf("%s: no mutant matches -only %q -dir %q", list, only, dirs)
	}
	// Every snippet is checked against the tree before anything runs.
	bad := false
	for _, m := range chosen {
		if p := check(".", m); p != "" {
			fmt.Fprintf(out, "LIST  %s: %s\n", m.Name, p)
			bad = true
		}
	}
	if bad {
		return 1, errors.New("the mutant list does not match the code")
	}

	parallel = max(parallel, 1)
	copies := make([]string, parallel)
	for i := range copies {
		dir, err := os.MkdirTemp("", "faultbench-mutate-")
		if err != nil {
			return 2, err
		}
		defer os.RemoveAll(dir)
		if err := copyModule(".", dir); err != nil {
			return 2, err
		}
		copies[i] = dir
	}

	start := time.Now()
	jobs := make(chan Mutant)
	results := make(chan verdict)
	var wg sync.WaitGroup
	for _, dir := range copies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range jobs {
				results <- apply(dir, m, timeout)
			}
		}()
	}
	go func() {
		for _, m := range chosen {
			jobs <- m
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()

	var survived, problems, killed, equivalent int
	for v := range results {
		switch {
		case v.problem != "":
			problems++
			fmt.Fprintf(out, "ERROR %-40s %s\n", v.m.Name, v.problem)
		case v.killed:
			killed++
			fmt.Fprintf(out, "kill  %-40s %5.1fs\n", v.m.Name, v.took.Seconds())
		case v.m.Equivalent != "":
			equivalent++
			fmt.Fprintf(out, "equiv %-40s (%s)\n", v.m.Name, v.m.Equivalent)
		default:
			survived++
			fmt.Fprintf(out, "LIVES %-40s %s\n      %s:%q → %q\n      tests: go test %s\n", v.m.Name, v.m.Bug, v.m.File, v.m.Find, v.m.Replace, strings.Join(v.m.Test, " "))
		}
	}
	fmt.Fprintf(out, "\n%d mutants: %d killed, %d survived, %d equivalent, %d errors, in %s\n",
		len(chosen), killed, survived, equivalent, problems, time.Since(start).Round(time.Second))
	counts := perFile(chosen)
	var files []string
	for f := range counts {
		files = append(files, f)
	}
	slices.Sort(files)
	fmt.Fprintf(out, "per file:")
	for _, f := range files {
		fmt.Fprintf(out, " %s %d;", f, counts[f])
	}
	fmt.Fprintln(out)
	if survived > 0 || problems > 0 {
		return 1, nil
	}
	return 0, nil
}

// check says what is wrong with a mutant against the tree at root, or "".
func check(root string, m Mutant) string {
	switch {
	case m.Name == "" || m.Bug == "" || m.File == "" || m.Find == "" || len(m.Test) == 0:
		return "name, bug, file, find and test are all required"
	case m.Find == m.Replace:
		return "replace is the same as find"
	}
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		return err.Error()
	}
	if n := bytes.Count(src, []byte(m.Find)); n != 1 {
		return fmt.Sprintf("the snippet occurs %d times in %s, not once", n, m.File)
	}
	return ""
}

// apply runs m's tests on the copy at dir with m in place, and puts the
// file back as it was.
func apply(dir string, m Mutant, timeout time.Duration) verdict {
	v := verdict{m: m}
	path := filepath.Join(dir, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		v.problem = err.Error()
		return v
	}
	defer func() {
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			panic(fmt.Sprintf("mutate: cannot restore %s: %v", path, err))
		}
		_ = os.RemoveAll(filepath.Join(dir, filepath.Dir(m.File), "testdata", "rapid"))
	}()
	mutated := bytes.Replace(orig, []byte(m.Find), []byte(m.Replace), 1)
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		v.problem = err.Error()
		return v
	}
	// go test's own -timeout ends a hung test binary (killing only the go
	// command would leave it running, spinning a core and holding the
	// output pipe open until its default ten minutes); the context, a
	// little longer, ends a go command that hangs itself.
	ctx, cancel := context.WithTimeout(context.Background(), timeout+time.Minute)
	defer cancel()
	args := append([]string{"test", "-count=1", "-timeout=" + timeout.String()}, m.Test...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.WaitDelay = 10 * time.Second
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RAPID_NOFAILFILE=true")
	start := time.Now()
	outb, err := cmd.CombinedOutput()
	v.took = time.Since(start)
	v.output = string(outb)
	switch {
	case err == nil:
		v.killed = false
	case strings.Contains(v.output, "[build failed]") || strings.Contains(v.output, "[setup failed]"):
		v.problem = "does not compile:\n" + firstLines(v.output, 6)
	case ctx.Err() != nil || strings.Contains(v.output, "panic: test timed out after"):
		// A mutant that makes a test hang and a machine too busy to run
		// the tests in time look alike: neither is a kill.
		v.problem = fmt.Sprintf("timed out after %s: a test hangs, or the machine is too busy (raise -timeout)", timeout)
	default:
		v.killed = true
	}
	return v
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// copyModule copies the module's files (not .git, not build output) from
// src to dst.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" || d.Name() == "out") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || rel == "faultbench" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}
