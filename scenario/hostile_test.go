//go:build unix

package scenario_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("A hostile scenario file", func() {
	It("is refused before parsing when nested too deep, with its line", func() {
		_, err := scenario.Parse("x.yaml", minimal("compaction:\n  x: "+strings.Repeat("[", 100_000)))
		Expect(err).To(MatchError(HavePrefix("x.yaml:6:")))
		Expect(err).To(MatchError(ContainSubstring("nested more than 32 levels deep")))
	})

	It("never echoes a file that is not text", func() {
		dir := GinkgoT().TempDir()
		link := filepath.Join(dir, "x.yaml")
		Expect(os.Symlink("/proc/self/environ", link)).To(Succeed())
		if _, err := os.Stat("/proc/self/environ"); err != nil {
			Skip("no /proc here")
		}
		_, err := scenario.Load(dir)
		Expect(err).To(MatchError(ContainSubstring("not a YAML text file")))
		Expect(err.Error()).NotTo(ContainSubstring("PATH="))
	})

	It("is not read when it is a FIFO or a device", func() {
		dir := GinkgoT().TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o600); err != nil {
			Skip("no FIFOs here")
		}
		Expect(os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml"))).To(Succeed())
		_, err := scenario.Load(dir)
		Expect(err).To(MatchError(ContainSubstring("fifo.yaml: cannot read: not a regular file (a FIFO)")))
		Expect(err).To(MatchError(ContainSubstring("zero.yaml: cannot read: not a regular file (a character device)")))
	})

	// A shadow-style line as a key: neither the message nor the field path
	// repeats more than 40 bytes of it.
	It("quotes at most a short prefix of an unknown key, in the field path too", func() {
		key := "root:$6$" + strings.Repeat("Hh", 60) + ":19000:0:99999:7:::"
		for _, doc := range []string{key + ": 1\n", "workload:\n  " + key + ": 1\n"} {
			_, err := scenario.Parse("x.yaml", minimal(doc))
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).NotTo(ContainSubstring(key[:60]), doc)
		}
	})

	It("quotes at most a short prefix of a bad value", func() {
		_, err := scenario.Parse("x.yaml", minimal("script:\n  - when: {purpose: "+strings.Repeat("secret", 1000)+"}\n    respond: {ok: true}\n"))
		Expect(err).To(MatchError(ContainSubstring(`got "secretsecretsecretsecretsecretsecretsecr"… (6000 bytes)`)))
	})
})
