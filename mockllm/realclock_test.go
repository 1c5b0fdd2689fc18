package mockllm_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/mockllm"
)

var _ = Describe("a mock without a clock of its own", func() {
	It("runs on the wall clock (RealClock) instead of panicking", func() {
		var srv *mockllm.Server
		Expect(func() { srv = mockllm.New(nil, nil) }).NotTo(Panic())
		Expect(srv).NotTo(BeNil())
		before := time.Now()
		Expect(mockllm.RealClock{}.Now()).To(BeTemporally(">=", before))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		Expect(mockllm.RealClock{}.Sleep(ctx, time.Hour)).To(MatchError(context.Canceled))
	})
})
