package mockllm

import "time"

// OpenAtFirstRequest registers a session as Open does, but with its
// start, and so its clock (a rule's when.after and when.before, the
// journal's time), at its first request, as a session a request makes
// starts under `faultbench serve` (docs/serve.md#sessions). grade opens
// its sessions so: a client that takes 16 s to start meets the same
// script as one that takes 0.5 s.
func (s *Server) OpenAtFirstRequest(name, session string, clock Clock) error {
	if err := s.Open(name, session, clock); err != nil {
		return err
	}
	sess := s.opened(name, session)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.n == 0 {
		sess.start, sess.started = time.Time{}, false
	}
	return nil
}

// Started returns the start of session `session` of scenario `name` on
// its clock: the time of its first request for a session opened with
// OpenAtFirstRequest or made by a request, the time of Open otherwise.
// It is false while such a session has had no request, and for a session
// the server does not have.
func (s *Server) Started(name, session string) (time.Time, bool) {
	sess := s.opened(name, session)
	if sess == nil {
		return time.Time{}, false
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.start, sess.started
}

// opened is a session the server holds, or nil.
func (s *Server) opened(name, session string) *session {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sessions[sessionKey{name, session}]
}
