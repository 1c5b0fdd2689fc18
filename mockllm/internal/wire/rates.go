package wire

import "time"

// The buckets a 429 can come from (Error.Bucket, Rates.Refused).
const (
	BucketRequests = "requests"
	BucketInput    = "input"
	BucketOutput   = "output"
)

// Limit is one rate-limit bucket as the headers show it; a zero Limit is
// a bucket the model does not declare.
type Limit struct {
	Limit, Remaining int64
	Reset            time.Duration // until the bucket is full again
}

// Rates is a model's buckets as an answer's headers show them, read at
// Now after what the request paid.
type Rates struct {
	Now                     time.Time
	Requests, Input, Output Limit
	// Refused names the bucket that refused the request (Error.Bucket),
	// "" when none did.
	Refused string
}

// Tokens is the token bucket that refused the request, so that a 429's
// headers tell of the bucket its message names; otherwise the more
// restrictive of the two: the one with fewer tokens left (input on a tie);
// zero when neither is declared.
func (rs *Rates) Tokens() Limit {
	switch {
	case rs.Refused == BucketInput && rs.Input.Limit > 0:
		return rs.Input
	case rs.Refused == BucketOutput && rs.Output.Limit > 0:
		return rs.Output
	case rs.Input.Limit == 0:
		return rs.Output
	case rs.Output.Limit == 0:
		return rs.Input
	case rs.Output.Remaining < rs.Input.Remaining:
		return rs.Output
	}
	return rs.Input
}
