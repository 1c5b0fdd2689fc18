package loopguard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Fingerprint identifies a tool call: "name:hash-of-canonical-arguments".
type Fingerprint string

// Of returns the fingerprint of a call to tool name with the given JSON
// arguments. Key order and insignificant whitespace do not change it; any
// other difference in a value does. Arguments that are not valid JSON are
// an error.
func Of(name string, args []byte) (Fingerprint, error) {
	canon, err := Canonical(args)
	if err != nil {
		return "", fmt.Errorf("loopguard: arguments of %s: %w", name, err)
	}
	sum := sha256.Sum256(canon)
	return Fingerprint(name + ":" + hex.EncodeToString(sum[:8])), nil
}

// Canonical returns args re-encoded with object keys sorted and no
// insignificant whitespace; numbers keep their written form. Empty args
// count as {}.
func Canonical(args []byte) ([]byte, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return []byte("{}"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the arguments")
	}
	// encoding/json writes map keys sorted, so decoding into maps and
	// encoding again is the canonical form.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ResultHash condenses a tool result for the no-progress detector.
func ResultHash(result string, isError bool) string {
	h := sha256.New()
	if isError {
		h.Write([]byte{1})
	} else {
		h.Write([]byte{0})
	}
	h.Write([]byte(result))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
