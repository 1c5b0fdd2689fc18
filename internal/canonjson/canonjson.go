package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
)

// ErrTrailing reports data after the first JSON value.
var ErrTrailing = errors.New("data after the JSON value")

// Encode returns data re-encoded with object keys sorted and no
// insignificant whitespace; numbers keep their written form and HTML
// characters are not escaped. Empty (or all-space) data counts as {}.
// Data that is not one JSON value is an error.
func Encode(data []byte) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return []byte("{}"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, ErrTrailing
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
