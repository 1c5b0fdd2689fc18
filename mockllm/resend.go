package mockllm

import (
	"hash/maphash"
	"io"
)

// A resend is a request whose body is byte for byte one its session sent
// before: what a retry is, whether or not the client says so in the SDKs'
// X-Stainless-Retry-Count (agent frameworks retry with the SDK's own
// retries off, and send none). The body is hashed as it is read, and a
// session remembers the hashes of its latest requests.

// resendMemory is how many of a session's latest bodies it remembers.
const resendMemory = 64

// fingerprintSeed is the seed of the bodies' hashes: a fingerprint is
// only compared within one process, and never shown.
var fingerprintSeed = maphash.MakeSeed()

// hashingBody hashes a request body as the decoder reads it.
type hashingBody struct {
	io.ReadCloser
	h maphash.Hash
	n int64
}

func newHashingBody(rc io.ReadCloser) *hashingBody {
	b := &hashingBody{ReadCloser: rc}
	b.h.SetSeed(fingerprintSeed)
	return b
}

func (b *hashingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	_, _ = b.h.Write(p[:n])
	b.n += int64(n)
	return n, err
}

// fingerprint is the hash of what was read, and false when nothing was.
func (b *hashingBody) fingerprint() (uint64, bool) { return b.h.Sum64(), b.n > 0 }

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
