package mockllm

// DecodedLen measures a JSON string (with its quotes) the way the request
// decoder does.
func DecodedLen(quoted []byte) int {
	s := scanner{b: quoted}
	_, n := s.str()
	return n
}

// CountBytes is the token rule by length.
var CountBytes = countBytes

// ErrorKind labels an error answer for the journal.
var ErrorKind = errorKind
