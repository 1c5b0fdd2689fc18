package mockllm

import (
	"hash/maphash"
	"math"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
)

// A resend is a request whose body is one its session sent before: what
// a retry is, whether or not the client says so in the SDKs'
// X-Stainless-Retry-Count (agent frameworks retry with the SDK's own
// retries off, and send none). Bodies are compared as JSON, not as bytes:
// a client that serialises its request again for each attempt may write
// its keys in another order (Codex reorders client_metadata), and no
// client's retry should go unnoticed for that. A session remembers the
// fingerprints of its latest bodies.

// resendMemory is how many of a session's latest bodies it remembers.
const resendMemory = 64

// fingerprintSeed is the seed of the bodies' hashes: a fingerprint is
// only compared within one process, and never shown.
var fingerprintSeed = maphash.MakeSeed()

// fingerprint is a body's hash as JSON: two bodies that hold the same
// JSON value hash alike, whatever the order of their objects' keys, their
// white space, their strings' escapes or their numbers' spelling (1.0 and
// 1). A body that is not JSON is hashed byte for byte. ok is false for an
// empty body.
func fingerprint(b []byte) (fp uint64, ok bool) {
	if len(b) == 0 {
		return 0, false
	}
	s := jsonscan.New(b)
	h := valueHash(s)
	if !s.End() {
		return mix(tagBytes, maphash.Bytes(fingerprintSeed, b)), true
	}
	return h, true
}

// The tags that keep values of different types apart.
const (
	tagBytes uint64 = iota + 1
	tagString
	tagNumber
	tagLiteral
	tagArray
	tagObject
	tagMember
)

// valueHash hashes the value s stands at, consuming it: an object's
// members are summed, so their order does not count; an array's elements
// are chained, so theirs does.
func valueHash(s *jsonscan.Scanner) uint64 {
	switch c := s.Peek(); c {
	case '"':
		return mix(tagString, stringHash(s))
	case '[':
		s.Enter()
		h, n := tagArray, uint64(0)
		for s.More() {
			h = mix(h, valueHash(s))
			n++
		}
		return mix(h, n)
	case '{':
		s.Enter()
		var sum, n uint64
		for s.More() {
			k := maphash.Bytes(fingerprintSeed, s.Key())
			sum += mix(mix(tagMember, k), valueHash(s))
			n++
		}
		return mix(mix(tagObject, sum), n)
	case 0:
		s.Fault()
		return 0
	}
	lit := s.Literal()
	if f, err := strconv.ParseFloat(string(lit), 64); err == nil {
		return mix(tagNumber, math.Float64bits(f))
	}
	return mix(tagLiteral, maphash.Bytes(fingerprintSeed, lit))
}

// stringHash hashes the string s stands at by its decoded bytes, so that
// "\u00e9" and "é" hash alike.
func stringHash(s *jsonscan.Scanner) uint64 {
	raw, _ := s.Str()
	if s.Escaped() {
		return maphash.String(fingerprintSeed, jsonscan.Unquote(raw))
	}
	return maphash.Bytes(fingerprintSeed, raw)
}

// mix folds v into h (a 64-bit finaliser of splitmix64's kind).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// recentBodies remembers the fingerprints of a session's latest requests.
type recentBodies struct {
	fps  [resendMemory]uint64
	ns   [resendMemory]int
	next int
}

// resend returns the N of the latest request with fingerprint fp (0:
// none), and remembers fp as request n's.
func (b *recentBodies) resend(fp uint64, n int) int {
	latest := 0
	for i, f := range b.fps {
		if b.ns[i] != 0 && f == fp && b.ns[i] > latest {
			latest = b.ns[i]
		}
	}
	b.fps[b.next], b.ns[b.next] = fp, n
	b.next = (b.next + 1) % resendMemory
	return latest
}
