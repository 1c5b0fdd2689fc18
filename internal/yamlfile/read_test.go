//go:build unix

package yamlfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero, dir} {
		_, err := yamlfile.ReadFile(p) // a FIFO without a writer must not block
		if !errors.Is(err, yamlfile.ErrNotRegular) {
			t.Errorf("%s: got %v, want ErrNotRegular", p, err)
		}
	}
}

func TestReadFileNeverReadsPastTheCeiling(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", yamlfile.MaxBytes+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := yamlfile.ReadFile(big); !errors.Is(err, yamlfile.ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
}

// /proc/self/environ calls itself a regular file of size 0: it is read,
// and Check refuses it as not text, without quoting it.
func TestEnvironIsNeverEchoed(t *testing.T) {
	t.Setenv("FAULTBENCH_SECRET", "hunter2")
	data, err := yamlfile.ReadFile("/proc/self/environ")
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	p := yamlfile.Check(data)
	if !errors.Is(p, yamlfile.ErrNotText) || strings.Contains(p.Msg, "hunter2") {
		t.Errorf("got %v", p)
	}
}
