package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/spf13/cobra"
)

// Every command's --help fits 100 columns, the root's and completion's
// included: a long flag usage or summary wraps under its own column.
func TestHelpFits100Columns(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(newRoot(io.Discard, io.Discard), nil)
	// completion's own commands are added as it runs.
	paths = append(paths, []string{"completion", "bash"}, []string{"completion", "zsh"},
		[]string{"completion", "fish"}, []string{"completion", "powershell"})
	for _, p := range paths {
		code, out, errOut := run(t, append(p, "--help")...)
		if code != exitOK || out == "" {
			t.Fatalf("%v --help: exit %d, %s", p, code, errOut)
		}
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("faultbench %s --help, line %d: %d columns: %s", strings.Join(p, " "), i+1, n, line)
			}
		}
	}
}

func TestWrapLineIndentsUnderItsColumn(t *testing.T) {
	first := "  -x, --flag string   "
	got := wrapLine(first+strings.Repeat("word ", 30)+"end", 60)
	for i, line := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(line) > 60 {
			t.Errorf("line %d too wide: %q", i, line)
		}
		if i > 0 && !strings.HasPrefix(line, strings.Repeat(" ", len(first))+"word") && !strings.HasSuffix(line, "end") {
			t.Errorf("line %d not under its column: %q", i, line)
		}
	}
	if strings.Count(got, "\n") < 2 {
		t.Errorf("not wrapped: %q", got)
	}
}

// Every flag of every command is in docs/cli.md, in that command's
// section ("## run" and so on): a flag added to the code and not to the
// docs fails here.
func TestEveryFlagIsInTheCLIDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	name := ""
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			name = strings.Fields(h)[0]
		}
		sections[name] += line + "\n"
	}
	root := newRoot(io.Discard, io.Discard)
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		section, ok := sections[c.Name()]
		if !ok {
			t.Errorf("docs/cli.md has no section \"## %s\"", c.Name())
			continue
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			if !strings.Contains(section, "--"+f.Name) {
				t.Errorf("docs/cli.md, section %s: no --%s (%s)", c.Name(), f.Name, f.Usage)
			}
		})
	}
}
