package bedrock

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// The AWS event stream, as Bedrock's streaming routes send it
// (application/vnd.amazon.eventstream): a run of messages, each
//
//	total length     uint32, big-endian, the whole message
//	headers length   uint32
//	prelude CRC      CRC-32 (IEEE) of the 8 bytes before it
//	headers          name length (1 byte), name, value type (1 byte), value
//	payload
//	message CRC      CRC-32 of every byte before it
//
// The mock only writes string headers (type 7: a uint16 length and the
// bytes); Decode reads every type the format defines, so that a test can
// read what any encoder wrote.

// The bounds of a message, AWS's own: a message is at most 16 MiB and its
// headers at most 128 KiB; a message is at least its prelude and its CRC.
const (
	maxMessage = 16 << 20
	maxHeaders = 128 << 10
	prelude    = 12
	minMessage = prelude + 4
)

// Header is one header of a message whose value is a string (the only
// type Bedrock's headers use).
type Header struct{ Name, Value string }

// AppendMessage appends one event-stream message with the given string
// headers and payload. A header name over 255 bytes or a value over 65535
// is cut to fit, which no header the wire writes comes near.
func AppendMessage(b []byte, headers []Header, payload []byte) []byte {
	start := len(b)
	b = append(b, make([]byte, prelude)...)
	for _, h := range headers {
		name, value := h.Name[:min(len(h.Name), 255)], h.Value[:min(len(h.Value), 65535)]
		b = append(b, byte(len(name)))
		b = append(b, name...)
		b = append(b, typeString)
		b = binary.BigEndian.AppendUint16(b, uint16(len(value)))
		b = append(b, value...)
	}
	headersLen := len(b) - start - prelude
	b = append(b, payload...)
	total := len(b) - start + 4
	binary.BigEndian.PutUint32(b[start:], uint32(total))
	binary.BigEndian.PutUint32(b[start+4:], uint32(headersLen))
	binary.BigEndian.PutUint32(b[start+8:], crc32.ChecksumIEEE(b[start:start+8]))
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// The value types of a header.
const (
	typeTrue = iota
	typeFalse
	typeByte
	typeShort
	typeInt
	typeLong
	typeBytes
	typeString
	typeTimestamp
	typeUUID
)

// Message is one decoded event-stream message: its headers (a value that
// is not a string or bytes is kept as its raw big-endian bytes) and its
// payload, both in the decoded buffer.
type Message struct {
	Headers []Header
	Payload []byte
}

// Get is the value of the header named name ("" when there is none).
func (m *Message) Get(name string) string {
	for _, h := range m.Headers {
		if h.Name == name {
			return h.Value
		}
	}
	return ""
}

// ErrShort is Decode's error for a buffer that holds less than one whole
// message: a reader should read more before it decodes again.
var ErrShort = errors.New("event stream: message incomplete")

// Decode reads the first message of b and returns it and the bytes after
// it. A message that breaks the format (a length out of bounds, a CRC
// that does not match, a header cut short) is an error naming what broke;
// a message not yet whole is ErrShort.
func Decode(b []byte) (Message, []byte, error) {
	if len(b) < prelude {
		return Message{}, b, ErrShort
	}
	total := binary.BigEndian.Uint32(b)
	headersLen := binary.BigEndian.Uint32(b[4:])
	if crc := crc32.ChecksumIEEE(b[:8]); crc != binary.BigEndian.Uint32(b[8:]) {
		return Message{}, b, fmt.Errorf("event stream: prelude CRC %08x, computed %08x", binary.BigEndian.Uint32(b[8:]), crc)
	}
	switch {
	case total < minMessage || total > maxMessage:
		return Message{}, b, fmt.Errorf("event stream: message length %d out of [%d, %d]", total, minMessage, maxMessage)
	case headersLen > maxHeaders || headersLen > total-minMessage:
		return Message{}, b, fmt.Errorf("event stream: headers length %d in a message of %d bytes", headersLen, total)
	case uint32(len(b)) < total:
		return Message{}, b, ErrShort
	}
	msg, rest := b[:total], b[total:]
	end := total - 4
	if crc := crc32.ChecksumIEEE(msg[:end]); crc != binary.BigEndian.Uint32(msg[end:]) {
		return Message{}, b, fmt.Errorf("event stream: message CRC %08x, computed %08x", binary.BigEndian.Uint32(msg[end:]), crc)
	}
	headers, err := decodeHeaders(msg[prelude : prelude+headersLen])
	if err != nil {
		return Message{}, b, err
	}
	return Message{Headers: headers, Payload: msg[prelude+headersLen : end]}, rest, nil
}

// decodeHeaders reads a message's headers.
func decodeHeaders(b []byte) ([]Header, error) {
	var hs []Header
	for len(b) > 0 {
		n := int(b[0])
		if n == 0 || len(b) < 1+n+1 {
			return nil, fmt.Errorf("event stream: header %d: name cut short", len(hs))
		}
		name, typ := string(b[1:1+n]), b[1+n]
		b = b[2+n:]
		size := 0
		switch typ {
		case typeTrue, typeFalse:
		case typeByte:
			size = 1
		case typeShort:
			size = 2
		case typeInt:
			size = 4
		case typeLong, typeTimestamp:
			size = 8
		case typeUUID:
			size = 16
		case typeBytes, typeString:
			if len(b) < 2 {
				return nil, fmt.Errorf("event stream: header %q: length cut short", name)
			}
			size, b = int(binary.BigEndian.Uint16(b)), b[2:]
		default:
			return nil, fmt.Errorf("event stream: header %q: unknown value type %d", name, typ)
		}
		if len(b) < size {
			return nil, fmt.Errorf("event stream: header %q: value cut short", name)
		}
		hs = append(hs, Header{Name: name, Value: string(b[:size])})
		b = b[size:]
	}
	return hs, nil
}
