package harness

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// sched is a workload's discrete-event scheduler (doc.go): the turns of
// one strategy share one virtual clock, and exactly one turn runs at a
// time — its engine, its HTTP round trip and the mock's handling of it.
// A turn stops running only when it waits (the engine sleeps, the mock
// waits on the turn's behalf, or the turn ends); the scheduler then hands
// the run to the waiting turn with the earliest wake-up, ties broken by
// turn index, and moves the clock to that wake-up. Nothing is left to the
// goroutine scheduler, so the same seed gives the same bytes at any
// GOMAXPROCS.
type sched struct {
	mu      sync.Mutex
	now     time.Time
	running int // the turn that runs; -1 while the run is being handed over
	queue   wakes
	// start says when turn k may start; slots counts the turns that may
	// still start before one ends (concurrency).
	start func(k int) time.Time
	next  int // the next turn to start
	turns int
	slots int
	run   func(k int) // runs turn k to its end
	done  chan struct{}
	ended int
}

// wake is a waiting turn: it runs again at at. index is its place in
// the queue, -1 once it has left it.
type wake struct {
	at    time.Time
	turn  int
	ch    chan struct{}
	index int
}

type wakes []*wake

func (w wakes) Len() int { return len(w) }
func (w wakes) Less(i, j int) bool {
	if !w[i].at.Equal(w[j].at) {
		return w[i].at.Before(w[j].at)
	}
	return w[i].turn < w[j].turn
}
func (w wakes) Swap(i, j int) {
	w[i], w[j] = w[j], w[i]
	w[i].index, w[j].index = i, j
}
func (w *wakes) Push(x any) {
	x.(*wake).index = len(*w)
	*w = append(*w, x.(*wake))
}
func (w *wakes) Pop() any {
	old := *w
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*w = old[:len(old)-1]
	x.index = -1
	return x
}

// newSched schedules turns turns, at most concurrency at once, turn k
// starting no earlier than start(k); run runs one.
func newSched(turns, concurrency int, start func(k int) time.Time, run func(k int)) *sched {
	return &sched{
		now: clock.Epoch, running: -1, start: start, turns: turns,
		slots: max(concurrency, 1), run: run, done: make(chan struct{}),
	}
}

// Run runs every turn and returns when the last has ended.
func (s *sched) Run() {
	s.mu.Lock()
	for s.slots > 0 && s.next < s.turns {
		s.launchLocked()
	}
	s.dispatchLocked()
	s.mu.Unlock()
	<-s.done
}

// launchLocked takes a slot for the next turn: its goroutine waits for
// its start like any wake-up.
func (s *sched) launchLocked() {
	k := s.next
	s.next++
	s.slots--
	ch := make(chan struct{})
	heap.Push(&s.queue, &wake{at: s.start(k), turn: k, ch: ch})
	go func() {
		<-ch
		s.run(k)
		s.end()
	}()
}

// dispatchLocked hands the run to the earliest wake-up.
func (s *sched) dispatchLocked() {
	if s.queue.Len() == 0 {
		return
	}
	w := heap.Pop(&s.queue).(*wake)
	if w.at.After(s.now) {
		s.now = w.at
	}
	s.running = w.turn
	close(w.ch)
}

// end is called by the running turn when it is over.
func (s *sched) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = -1
	s.ended++
	s.slots++
	if s.next < s.turns {
		s.launchLocked()
	}
	if s.ended == s.turns {
		close(s.done)
		return
	}
	s.dispatchLocked()
}

// current is the turn that runs.
func (s *sched) current() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// Now is the workload's virtual time.
func (s *sched) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

// Sleep parks the running turn for d and lets the others run. A d of 0
// still yields to a turn whose wake-up is due now with a lower index.
func (s *sched) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.park(max(d, 0))
	return nil
}

// SleepWake parks the running turn like Sleep, after handing enlist a
// wake function: called by the turn that runs then, it moves the parked
// turn's wake-up to that moment, so that it runs next at that virtual
// time (ties by turn index, as always). wake reports whether the turn was
// still parked.
func (s *sched) SleepWake(ctx context.Context, d time.Duration, enlist func(wake func() bool)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	w := &wake{at: s.now.Add(max(d, 0)), turn: s.running, ch: make(chan struct{}), index: -1}
	s.mu.Unlock()
	enlist(func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if w.index < 0 {
			return false
		}
		if w.at.After(s.now) {
			w.at = s.now
			heap.Fix(&s.queue, w.index)
		}
		return true
	})
	s.parkWake(w)
	return nil
}

// park makes the running turn wait d, and returns when it runs again.
func (s *sched) park(d time.Duration) {
	s.mu.Lock()
	w := &wake{at: s.now.Add(d), turn: s.running, ch: make(chan struct{})}
	s.mu.Unlock()
	s.parkWake(w)
}

// parkWake queues the running turn's wake-up w and hands the run on; it
// returns when the turn runs again.
func (s *sched) parkWake(w *wake) {
	s.mu.Lock()
	heap.Push(&s.queue, w)
	s.running = -1
	s.dispatchLocked()
	s.mu.Unlock()
	<-w.ch
}
