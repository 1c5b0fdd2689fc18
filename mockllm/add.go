package mockllm

import (
	"errors"
	"fmt"

	"github.com/faultbench/faultbench/scenario"
)

// MaxAdded is the most scenarios a server serves by Add at once (over
// the admin route or in Go): a client that adds scenarios without
// removing them is refused the next one rather than let grow the
// server's memory.
const MaxAdded = 1000

// The reasons Add refuses a scenario, for errors.Is.
var (
	// ErrServed is a name the server serves already, of New or of Add.
	ErrServed = errors.New("a scenario of that name is served already")
	// ErrTooMany is an Add past MaxAdded.
	ErrTooMany = fmt.Errorf("the server serves %d added scenarios already: remove one first", MaxAdded)
)

// Add serves one more scenario, under its name, until Remove: how a
// caller that makes scenarios as it goes (faultbench explore, a test
// that declares its scenario in code) reuses one server for all of them.
// A name New was given, or one already added, is an error (ErrServed);
// so is an Add past MaxAdded (ErrTooMany) and a nil scenario. The
// scenario is only read, never changed.
func (s *Server) Add(sc *scenario.Scenario) error {
	if sc == nil {
		return fmt.Errorf("mockllm: add: no scenario")
	}
	sv := newServed(sc)
	sv.global = s.aliases
	s.scMu.Lock()
	defer s.scMu.Unlock()
	if _, ok := s.scenarios[sc.Name]; ok {
		how := "the server was made with it"
		if s.added[sc.Name] {
			how = "it is served already"
		}
		return fmt.Errorf("mockllm: add scenario %q: %s: %w", sc.Name, how, ErrServed)
	}
	if len(s.added) >= MaxAdded {
		return fmt.Errorf("mockllm: add scenario %q: %w", sc.Name, ErrTooMany)
	}
	s.scenarios[sc.Name] = sv
	s.added[sc.Name] = true
	return nil
}

// Remove stops serving a scenario of Add and forgets its sessions; a name
// Add was not given is left alone. It reports whether it removed one.
func (s *Server) Remove(name string) bool {
	s.scMu.Lock()
	ok := s.added[name]
	if ok {
		delete(s.added, name)
		delete(s.scenarios, name)
	}
	s.scMu.Unlock()
	if !ok {
		return false
	}
	s.mu.Lock()
	var gone []*session
	for k, sess := range s.sessions {
		if k.scenario == name {
			gone = append(gone, sess)
			delete(s.sessions, k)
		}
	}
	s.mu.Unlock()
	for _, sess := range gone {
		sess.release()
	}
	return true
}

// lookup is the served scenario of a name, of New or of Add; nil when
// there is none.
func (s *Server) lookup(name string) *served {
	s.scMu.RLock()
	defer s.scMu.RUnlock()
	return s.scenarios[name]
}
