package loopguard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/faultbench/faultbench/internal/canonjson"
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
// count as {}. The mock writes tool inputs in the same form.
func Canonical(args []byte) ([]byte, error) {
	return canonjson.Encode(args)
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
