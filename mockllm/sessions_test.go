package mockllm_test

import (
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("sessions", func() {
	var (
		serverClock *clock.Virtual
		srv         *mockllm.Server
		good        string
	)

	BeforeEach(func() {
		serverClock = clock.NewVirtual()
		srv = mockllm.New([]*scenario.Scenario{newScenario(
			scenario.Rule{Times: 2, Respond: scripted429},
			rule(scenario.When{Before: secs(10)}, status(529)),
		)}, serverClock)
		good = ask("sonnet", 1000, 100)
	})

	It("each follow the script on their own", func() {
		a, b := clock.NewVirtual(), clock.NewVirtual()
		Expect(srv.Open(scName, "a", a)).To(Succeed())
		Expect(srv.Open(scName, "b", b)).To(Succeed())

		Expect(statuses(srv, to("a"), good, 3)).To(Equal([]int{429, 429, 529}))
		a.Advance(10 * time.Second)
		Expect(to("a").send(srv, good).Code).To(Equal(200))

		// b has used none of the rule's times, and its clock has not moved.
		Expect(statuses(srv, to("b"), good, 3)).To(Equal([]int{429, 429, 529}))
		Expect(srv.Entries(scName, "b")[0].N).To(Equal(1))
		Expect(srv.Entries(scName, "a")).To(HaveLen(4))
		Expect(srv.Entries(scName, "b")).To(HaveLen(3))
	})

	It("share nothing when they run at once", func() {
		const sessions, requests = 16, 12
		var wg sync.WaitGroup
		for i := range sessions {
			name := fmt.Sprintf("s%d", i)
			Expect(srv.Open(scName, name, clock.NewVirtual())).To(Succeed())
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				Expect(statuses(srv, to(name), good, requests)).To(HaveExactElements(
					429, 429, 529, 529, 529, 529, 529, 529, 529, 529, 529, 529))
			}()
		}
		wg.Wait()
		Expect(srv.Journal()).To(HaveLen(sessions * requests))
		for i := range sessions {
			es := srv.Entries(scName, fmt.Sprintf("s%d", i))
			for n, e := range es {
				Expect(e.N).To(Equal(n + 1))
			}
		}
	})

	It("serve one session from many goroutines in one order", func() {
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				statuses(srv, to("shared"), good, 5)
			}()
		}
		wg.Wait()
		es := srv.Entries(scName, "shared")
		Expect(es).To(HaveLen(40))
		count := map[int]int{}
		for n, e := range es {
			Expect(e.N).To(Equal(n + 1))
			Expect(e.Attempt).To(Equal(n + 1))
			count[e.Status]++
		}
		Expect(count).To(Equal(map[int]int{429: 2, 529: 38}))
	})

	It("made by a request start then, on the server's clock", func() {
		serverClock.Advance(time.Hour)
		Expect(statuses(srv, to("late"), good, 3)).To(Equal([]int{429, 429, 529}))
		serverClock.Advance(10 * time.Second)
		Expect(to("late").send(srv, good).Code).To(Equal(200))
		Expect(srv.Entries(scName, "late")[3].TimeMS).To(Equal(int64(10000)))
	})

	It("are named default when the header is absent", func() {
		to("").send(srv, good)
		Expect(srv.Entries(scName, "default")).To(HaveLen(1))
		Expect(srv.Entries(scName, "default")[0].Session).To(Equal("default"))
	})

	It("cannot be opened twice, nor for an unknown scenario", func() {
		Expect(srv.Open(scName, "a", clock.NewVirtual())).To(Succeed())
		Expect(srv.Open(scName, "a", clock.NewVirtual())).To(MatchError(ContainSubstring("already open")))
		Expect(srv.Open("nope", "a", clock.NewVirtual())).To(MatchError(ContainSubstring("unknown scenario")))
	})

	It("are forgotten by CloseSession, and a later request starts afresh", func() {
		Expect(statuses(srv, to("a"), good, 2)).To(Equal([]int{429, 429}))
		to("b").send(srv, good)
		srv.CloseSession(scName, "a")
		Expect(srv.Entries(scName, "a")).To(BeNil())
		Expect(srv.Journal()).To(HaveLen(1))
		Expect(srv.Open(scName, "a", clock.NewVirtual())).To(Succeed())
		Expect(to("a").send(srv, good).Code).To(Equal(429))
	})

	It("are all forgotten by Reset, with the journal", func() {
		to("a").send(srv, good)
		to("b").send(srv, good)
		srv.Reset()
		Expect(srv.Journal()).To(BeEmpty())
		Expect(to("a").send(srv, good).Code).To(Equal(429))
		Expect(srv.Entries(scName, "a")[0].N).To(Equal(1))
	})
})
