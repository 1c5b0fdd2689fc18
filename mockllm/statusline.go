package mockllm

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// reasonPhrase is the reason phrase of a status net/http has none for, as
// the real API sends it: "529 Overloaded" (net/http would write "529
// status code 529"). "" for every other status, which net/http writes
// itself.
func reasonPhrase(status int) string {
	if status == 529 {
		return "Overloaded"
	}
	return ""
}

// writeRaw sends a whole response with its own status line on the
// connection taken over from net/http, which cannot write a reason phrase
// of its own. The connection then stays open, as the real API keeps it:
// it is handed back to the server that served r, which reads the next
// request on it (one a client sent behind this one included). It closes
// after the response when the answer says Connection: close (a request
// refused before its body was read, a connection of the admin reserve),
// when the client asked for that, or when there is no server to hand it
// back to. It returns false, having written nothing, when the connection
// cannot be taken over (an httptest recorder), so that the caller writes
// as usual.
func writeRaw(w http.ResponseWriter, r *http.Request, status int, reason string, body []byte) bool {
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return false
	}
	h := w.Header().Clone()
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	closing := srv == nil || r.Close || h.Get("Connection") == "close"
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	if closing {
		h["Connection"] = []string{"close"}
	}
	_, _ = rw.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + reason + "\r\n")
	_ = h.Write(rw)
	_, _ = rw.WriteString("\r\n")
	_, _ = rw.Write(body)
	if rw.Flush() != nil || closing { // a client that went away has nothing left to tell
		_ = conn.Close()
		return true
	}
	go serveAgain(srv, &readConn{Conn: conn, r: rw.Reader})
	return true
}

// serveAgain hands a connection taken over back to srv, which serves it as
// a new one; it closes the connection when srv is shutting down.
func serveAgain(srv *http.Server, c net.Conn) {
	l := &oneConn{c: c}
	if err := srv.Serve(l); errors.Is(err, http.ErrServerClosed) && !l.taken {
		_ = c.Close()
	}
}

// readConn is a connection whose reads start with what net/http had
// already read of it (a request pipelined behind the one answered).
type readConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *readConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// oneConn is a listener that accepts one connection, then ends: Serve
// returns once it has started serving it, and never closes it.
type oneConn struct {
	once  sync.Once
	c     net.Conn
	taken bool // Serve has it
}

// errServed ends the Serve of a oneConn.
var errServed = errors.New("mockllm: the connection is served again")

func (l *oneConn) Accept() (net.Conn, error) {
	var c net.Conn
	l.once.Do(func() { c, l.taken = l.c, true })
	if c == nil {
		return nil, errServed
	}
	return c, nil
}

func (l *oneConn) Close() error   { return nil }
func (l *oneConn) Addr() net.Addr { return l.c.LocalAddr() }
