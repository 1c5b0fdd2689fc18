package bedrock

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// FuzzMessage holds the event-stream codec to its format: Decode of any
// bytes returns a message, ErrShort or an error, never a panic, and
// nothing past the bytes it was given; a message AppendMessage wrote
// decodes to its headers and payload, and any one byte of it flipped is
// refused (the CRCs see it). Run it with
//
//	go test -run '^$' -fuzz FuzzMessage ./mockllm/internal/wire/bedrock/
func FuzzMessage(f *testing.F) {
	f.Add([]byte{}, ":event-type", "chunk", []byte(`{"bytes":"e30="}`), uint16(0))
	f.Add(AppendMessage(nil, chunkHeaders, []byte(`{}`)), ":exception-type", "throttlingException", []byte(`{"message":"x"}`), uint16(13))
	f.Fuzz(func(t *testing.T, raw []byte, name, value string, payload []byte, flip uint16) {
		if m, rest, err := Decode(raw); err == nil {
			if len(rest) > len(raw) || len(m.Payload) > len(raw) {
				t.Fatalf("decoded past the input: %d + %d of %d", len(m.Payload), len(rest), len(raw))
			}
		}
		if name == "" || len(name) > 255 || len(value) > 65535 {
			return
		}
		hs := []Header{{name, value}, {":message-type", "event"}}
		b := AppendMessage(nil, hs, payload)
		m, rest, err := Decode(append(b, 0xff))
		if err != nil || len(rest) != 1 || !bytes.Equal(m.Payload, payload) || len(m.Headers) != 2 || m.Headers[0] != hs[0] || m.Get(":message-type") != "event" {
			t.Fatalf("round trip: %+v, rest %d, %v", m, len(rest), err)
		}
		i := int(flip) % len(b)
		b[i] ^= 0x20
		if _, _, err := Decode(b); err == nil {
			t.Fatalf("byte %d flipped in a message of %d: decoded", i, len(b))
		}
	})
}

// TestDecodeRefuses names what breaks in a message.
func TestDecodeRefuses(t *testing.T) {
	good := AppendMessage(nil, chunkHeaders, []byte(`{}`))
	huge := append([]byte(nil), good...)
	binary.BigEndian.PutUint32(huge, maxMessage+1)
	binary.BigEndian.PutUint32(huge[8:], crc32.ChecksumIEEE(huge[:8]))
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"short", good[:10], "incomplete"},
		{"cut", good[:len(good)-1], "incomplete"},
		{"prelude", append([]byte{0, 0, 0, 99}, good[4:]...), "prelude CRC"},
		{"length", huge, "out of"},
		{"message", append(good[:len(good)-1:len(good)-1], good[len(good)-1]^1), "message CRC"},
	} {
		_, _, err := Decode(tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if tc.want == "incomplete" && !errors.Is(err, ErrShort) {
			t.Errorf("%s: %v is not ErrShort", tc.name, err)
		}
	}
}

// FuzzRoute holds the route reader to Bedrock's paths: whatever it takes
// names a scenario of one segment and a model of 1 to 2048 bytes, and
// streams exactly on the stream route; it may not panic.
func FuzzRoute(f *testing.F) {
	for _, p := range []string{
		"/sc/model/sonnet/invoke", "/sc/model/sonnet/invoke-with-response-stream",
		"/model/sonnet/invoke", "/sc/model//invoke", "/sc/model/arn:aws:bedrock:us-east-1::foundation-model/a.b:0/invoke",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, path string) {
		name, rt, ok := Wire{}.Route(path, "")
		if !ok {
			return
		}
		if name == "" || strings.Contains(name, "/") || !strings.HasPrefix(path, "/"+name+"/model/") {
			t.Fatalf("%q routed to scenario %q", path, name)
		}
		if rt.Model == "" || len(rt.Model) > maxModelID || rt.Stream != strings.HasSuffix(path, invokeStream) {
			t.Fatalf("%q routed as %+v", path, rt)
		}
	})
}

// FuzzDecode holds the wire to what a hostile body may get: a 400 or a
// 413 ValidationException in Bedrock's {"message"} body, never a 5xx; a
// body it accepts is served as the model and the stream the path named.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"anthropic_version":"bedrock-2023-05-31","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		`{"anthropic_version":"2023-06-01","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"stream":true}`,
		`{"max_tokens":10,"messages":[]}`, `{"anthropic_version":1}`, `[`, ``, `{"model":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		q := wire.Request{Model: "m", HasModel: true, Stream: true}
		e := Wire{}.Decode(body, &q)
		if e == nil {
			if q.Model != "m" || !q.Stream {
				t.Fatalf("served %q (stream %v) for the path's model m: %q", q.Model, q.Stream, body)
			}
			return
		}
		if (e.Status != 400 && e.Status != 413) || e.Type != validation {
			t.Fatalf("refused with %d %s: %+v", e.Status, e.Type, e)
		}
		var env struct {
			Message *string `json:"message"`
		}
		b := Wire{}.Body(nil, &wire.Reply{Err: e})
		if err := json.Unmarshal(b, &env); err != nil || env.Message == nil || *env.Message == "" {
			t.Fatalf("the error body is not Bedrock's: %s", b)
		}
	})
}
