package mockllm

import "fmt"

// OpenFleet registers sessions of scenario name that share one set of
// quota buckets and capacity, as the turns of a workload share one
// organisation's key: session i runs on clocks[i] (which should all tell
// the same time), starting now. Each session keeps its own script state
// and journal. It is an error if the scenario is unknown, the lengths
// differ, or a session exists; the sessions opened before the error stay
// open.
func (s *Server) OpenFleet(name string, sessions []string, clocks []Clock) error {
	sc := s.lookup(name) // a scenario of New or of Add
	if sc == nil {
		return fmt.Errorf("mockllm: open fleet: unknown scenario %q", name)
	}
	if len(sessions) != len(clocks) {
		return fmt.Errorf("mockllm: open fleet of %q: %d sessions, %d clocks", name, len(sessions), len(clocks))
	}
	q := newQuotas(sc.sc)
	for i, session := range sessions {
		if err := s.Open(name, session, clocks[i]); err != nil {
			return err
		}
		s.mu.RLock()
		sess := s.sessions[sessionKey{name, session}]
		s.mu.RUnlock()
		sess.mu.Lock()
		sess.quota = q
		sess.mu.Unlock()
	}
	return nil
}
