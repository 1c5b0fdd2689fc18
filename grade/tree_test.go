//go:build linux

package grade_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/internal/fakeclient"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the client's whole tree", func() {
	// daemonOf runs the fake client with policy under ctx and timeout,
	// and returns the pid of the child it started with setsid.
	daemonOf := func(ctx context.Context, policy string, timeout time.Duration) int {
		sc := pack("t-tree", "recovers", "anthropic", `  - {respond: {ok: true}}`)
		file := filepath.Join(GinkgoT().TempDir(), "pid")
		_, _ = grade.Observe(ctx, []*scenario.Scenario{sc}, grade.Options{
			Command: []string{os.Args[0]}, Timeout: timeout,
			Env: append(os.Environ(), fakeclient.Env+"="+policy, fakeclient.PIDFile+"="+file),
		})
		data, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		pid, err := strconv.Atoi(string(data))
		Expect(err).NotTo(HaveOccurred())
		return pid
	}
	// gone says the process no longer exists, not even as a zombie: it
	// was killed and reaped.
	gone := func(pid int) bool {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	}

	It("ends a child that called setsid when the client exits, and reaps it", func() {
		pid := daemonOf(context.Background(), "daemon", 30*time.Second)
		Expect(gone(pid)).To(BeTrue(), "pid %d outlived its client", pid)
	})

	It("ends it at the timeout", func() {
		pid := daemonOf(context.Background(), "daemon-hang", time.Second)
		Expect(gone(pid)).To(BeTrue(), "pid %d outlived the timeout", pid)
	})

	It("ends it when grade is interrupted", func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		pid := daemonOf(ctx, "daemon-hang", 30*time.Second)
		Expect(gone(pid)).To(BeTrue(), "pid %d outlived the interruption", pid)
	})

	It("is reparented to grade, a child subreaper, when its parent exits", func() {
		daemonOf(context.Background(), "daemon", 30*time.Second)
		var on int32
		_, _, errno := syscall.Syscall(syscall.SYS_PRCTL, 37 /* PR_GET_CHILD_SUBREAPER */, uintptr(unsafe.Pointer(&on)), 0)
		Expect(errno).To(BeZero())
		Expect(on).To(Equal(int32(1)))
	})
})
