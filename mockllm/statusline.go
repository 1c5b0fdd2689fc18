package mockllm

import (
	"net/http"
	"strconv"
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
// of its own; the connection closes after it (Connection: close). It
// returns false, having written nothing, when the connection cannot be
// taken over (an httptest recorder), so that the caller writes as usual.
func writeRaw(w http.ResponseWriter, status int, reason string, body []byte) bool {
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return false
	}
	defer conn.Close()
	h := w.Header().Clone()
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["Connection"] = []string{"close"}
	_, _ = rw.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + reason + "\r\n")
	_ = h.Write(rw)
	_, _ = rw.WriteString("\r\n")
	_, _ = rw.Write(body)
	_ = rw.Flush() // a client that went away has nothing left to tell
	return true
}
