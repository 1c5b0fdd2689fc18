//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Any file, of any content, given as a scenario, a strategy or prices, ends in
// exit 2 with a message that never quotes what is not YAML.
func TestHostileFilesAreBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := []string{
		write("brackets.yaml", "a: "+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)),
		write("big.yaml", strings.Repeat("#", 2<<20)),
		write("binary.yaml", "name: x\x00\xff"),
		link("zero.yaml", "/dev/zero"),
	}
	if _, err := os.Stat("/proc/self/environ"); err == nil {
		files = append(files, link("environ.yaml", "/proc/self/environ"))
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o600); err == nil {
		files = append(files, filepath.Join(dir, "fifo.yaml"))
	}
	for _, f := range files {
		for _, args := range [][]string{{"validate", f}, {"run", "--strategies", f, "../../scenarios/truncated-answer.yaml"},
			{"run", "--prices", f, "../../scenarios/truncated-answer.yaml"}} {
			code, _, errOut := run(t, args...)
			if code != exitBadInput || strings.Contains(errOut, "PATH=") || len(errOut) > 1000 {
				t.Errorf("%s: exit %d, %d bytes of stderr: %.300s", strings.Join(args, " "), code, len(errOut), errOut)
			}
		}
	}
}

func TestReportsAreReadOnlyFromRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "part.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here")
	}
	for _, args := range [][]string{{"merge", fifo}, {"merge", "/dev/zero"}, {"run", "--baseline", fifo, "../../scenarios/truncated-answer.yaml"}} {
		code, _, errOut := run(t, args...)
		if code != exitBadInput || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
	}
}
