package mockllm

import (
	"fmt"

	"github.com/faultbench/faultbench/scenario"
)

// Add serves one more scenario, under its name, until Remove: how a
// caller that makes scenarios as it goes (faultbench explore) reuses one
// server for all of them. A name New was given, or one already added, is
// an error; so is a nil scenario. The scenario is only read, never changed.
func (s *Server) Add(sc *scenario.Scenario) error {
	if sc == nil {
		return fmt.Errorf("mockllm: add: no scenario")
	}
	if _, ok := s.scenarios[sc.Name]; ok {
		return fmt.Errorf("mockllm: add scenario %q: the server was made with it", sc.Name)
	}
	sv := newServed(sc)
	sv.global = s.aliases
	s.addMu.Lock()
	defer s.addMu.Unlock()
	if _, ok := s.added[sc.Name]; ok {
		return fmt.Errorf("mockllm: add scenario %q: it is served already", sc.Name)
	}
	if s.added == nil {
		s.added = make(map[string]*served)
	}
	s.added[sc.Name] = sv
	return nil
}

// Remove stops serving a scenario of Add and forgets its sessions; a name
// Add was not given is left alone.
func (s *Server) Remove(name string) {
	s.addMu.Lock()
	_, ok := s.added[name]
	delete(s.added, name)
	s.addMu.Unlock()
	if !ok {
		return
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
}

// lookup is the served scenario of a name, of New or of Add; nil when
// there is none.
func (s *Server) lookup(name string) *served {
	if sv, ok := s.scenarios[name]; ok {
		return sv
	}
	s.addMu.RLock()
	defer s.addMu.RUnlock()
	return s.added[name]
}
