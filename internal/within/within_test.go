package within

import (
	"testing"
	"time"
)

type recorder struct{ failed string }

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = format
}

func TestRecvReturnsWhatCame(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Recv(t, ch, "seven"); got != 7 {
		t.Fatalf("got %d", got)
	}
}

func TestRecvOfAClosedChannelReturnsAtOnce(t *testing.T) {
	ch := make(chan struct{})
	close(ch)
	r := &recorder{}
	Recv(r, ch, "the close")
	if r.failed != "" {
		t.Fatalf("failed on a closed channel: %s", r.failed)
	}
}

func TestRecvFailsWhenNothingComes(t *testing.T) {
	r := &recorder{}
	recv(r, make(chan int), "nothing", time.Millisecond)
	if r.failed == "" {
		t.Fatal("a receive that never came did not fail the test")
	}
}
