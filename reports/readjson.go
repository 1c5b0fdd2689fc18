package reports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/ledger"
)

// PositionError is a report refused at a place in its text: Line and
// Column count from 1, Column in bytes. Err says what is wrong there and
// never quotes the text itself.
type PositionError struct {
	Line, Column int
	Err          error
}

func (e *PositionError) Error() string { return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err) }
func (e *PositionError) Unwrap() error { return e.Err }

// ErrNotReport is wrapped by every error of [ReadJSON] about what the
// text holds (rather than the reader failing).
var ErrNotReport = errors.New("not a faultbench JSON report")

// checkEvery is how many results ReadJSONContext reads between looks at
// its context.
const checkEvery = 256

// ReadJSON is [ReadJSONContext] that is never stopped.
func ReadJSON(r io.Reader) (ledger.Report, *Shard, error) {
	return ReadJSONContext(context.Background(), r)
}

// ReadJSONContext reads a report [JSON] or [ShardJSON] wrote: the report,
// its shard when it holds one, and whether it is incomplete (Stopped). It
// reads as it decodes, one result at a time, so its memory is that of the
// results and not of the text too. Anything else — not JSON, trailing
// data, an object without "seed" or "results", a key twice in one object
// (encoding/json would keep the last, and a second "results": [] would
// empty the report), a negative number anywhere (every number in a report
// is a count, a duration, tokens or dollars), an outcome that is not one
// of ledger's, a value of the wrong type — is a [*PositionError] naming its
// line and column, wrapping [ErrNotReport]. When ctx ends it stops and
// returns context.Cause(ctx).
func ReadJSONContext(ctx context.Context, r io.Reader) (ledger.Report, *Shard, error) {
	lr := &lineReader{r: r}
	d := &docReader{ctx: ctx, dec: json.NewDecoder(lr), lines: lr}
	rep, shard, err := d.read()
	if err != nil {
		return ledger.Report{}, nil, err
	}
	return rep, shard, nil
}

type docReader struct {
	ctx   context.Context
	dec   *json.Decoder
	lines *lineReader
	scan  jsonscan.Scanner
}

// fail is an error at offset of the text.
func (d *docReader) fail(offset int64, format string, args ...any) error {
	line, col := d.lines.position(offset)
	return &PositionError{Line: line, Column: col, Err: fmt.Errorf("%w: "+format, append([]any{ErrNotReport}, args...)...)}
}

// decodeErr words an error of encoding/json at the decoder's place, or
// within the value that starts at base.
func (d *docReader) decodeErr(err error, base int64, path string) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return d.fail(d.dec.InputOffset(), "the text ends early")
	case errors.As(err, &syn):
		return d.fail(syn.Offset, "invalid JSON")
	case errors.As(err, &typ):
		kind := typ.Value
		if i := slices.Index([]byte(kind), ' '); i >= 0 {
			kind = kind[:i] // "number -1e18": the kind, not the text
		}
		field := path
		if typ.Field != "" {
			field += "." + typ.Field
		}
		return d.fail(base+typ.Offset, "%s: a %s where a %s belongs", field, kind, typ.Type)
	}
	var pe *PositionError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("reports: reading JSON: %w", err)
}

func (d *docReader) read() (ledger.Report, *Shard, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return ledger.Report{}, nil, d.decodeErr(err, 0, "")
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return ledger.Report{}, nil, d.fail(d.dec.InputOffset(), "want an object with \"seed\" and \"results\"")
	}
	var (
		rep      ledger.Report
		seed     *uint64
		complete *bool
		shard    *Shard
		results  []ledger.Result
		seen     = map[string]bool{}
	)
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return ledger.Report{}, nil, d.decodeErr(err, 0, "")
		}
		key, _ := tok.(string)
		if seen[key] {
			at := d.dec.InputOffset() - int64(len(key)) - 2 // the key's opening quote, when it has no escapes
			return ledger.Report{}, nil, d.fail(at, "the key %s twice in the report's object", keyName(key))
		}
		seen[key] = true
		switch key {
		case "seed":
			err = d.value(&seed, key)
		case "complete":
			err = d.value(&complete, key)
		case "stopped":
			err = d.value(&rep.Stopped, key)
		case "shard":
			err = d.value(&shard, key)
		case "results":
			results, err = d.results()
			if results == nil && err == nil {
				return ledger.Report{}, nil, d.fail(d.dec.InputOffset()-4, "\"results\" is null; want a list")
			}
		default:
			err = d.value(nil, key) // verdicts, and what a later version adds: read past
		}
		if err != nil {
			return ledger.Report{}, nil, err
		}
	}
	if _, err := d.dec.Token(); err != nil { // the closing brace
		return ledger.Report{}, nil, d.decodeErr(err, 0, "")
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return ledger.Report{}, nil, d.fail(d.dec.InputOffset(), "trailing data after the report")
	}
	if seed == nil || !seen["results"] {
		return ledger.Report{}, nil, &PositionError{Line: 1, Column: 1,
			Err: fmt.Errorf("%w: want an object with \"seed\" and \"results\"", ErrNotReport)}
	}
	rep.Seed, rep.Results = *seed, results
	if complete != nil && !*complete && rep.Stopped == nil {
		rep.Stopped = &ledger.Stop{Cause: "unknown"}
	}
	if rep.Stopped != nil && rep.Stopped.Cause == "" {
		rep.Stopped.Cause = "unknown"
	}
	return rep, shard, nil
}

// value decodes the next value into v (nil: checks it and drops it),
// after checking its text (checkRaw).
func (d *docReader) value(v any, path string) error {
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return d.decodeErr(err, 0, path)
	}
	base := d.dec.InputOffset() - int64(len(raw))
	if _, err := d.checkRaw(raw, base, path); err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return d.decodeErr(err, base, path)
	}
	return nil
}

// results decodes the list of results one at a time.
func (d *docReader) results() ([]ledger.Result, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, d.decodeErr(err, 0, "results")
	}
	if tok == nil {
		return nil, nil
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '[' {
		return nil, d.fail(d.dec.InputOffset(), "\"results\" is not a list")
	}
	out := []ledger.Result{}
	for i := 0; d.dec.More(); i++ {
		if i%checkEvery == 0 {
			if err := d.ctx.Err(); err != nil {
				return nil, context.Cause(d.ctx)
			}
		}
		path := "results[" + strconv.Itoa(i) + "]"
		var raw json.RawMessage
		if err := d.dec.Decode(&raw); err != nil {
			return nil, d.decodeErr(err, 0, path)
		}
		base := d.dec.InputOffset() - int64(len(raw))
		outcomeAt, err := d.checkRaw(raw, base, path)
		if err != nil {
			return nil, err
		}
		var r ledger.Result
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, d.decodeErr(err, base, path)
		}
		if !knownOutcome(r.Outcome) {
			return nil, d.fail(base+int64(outcomeAt), "%s.outcome: not one of %s", path, outcomeList)
		}
		out = append(out, r)
		d.lines.forget(d.dec.InputOffset())
	}
	if _, err := d.dec.Token(); err != nil { // the closing bracket
		return nil, d.decodeErr(err, 0, "results")
	}
	return out, nil
}

// outcomes are the outcomes a result may have.
var outcomes = []ledger.Outcome{ledger.OutcomeSuccess, ledger.OutcomeTruncated, ledger.OutcomeFailed,
	ledger.OutcomeAborted, ledger.OutcomeCancelled}

var outcomeList = func() string {
	s := ""
	for i, o := range outcomes {
		if i > 0 {
			s += ", "
		}
		s += string(o)
	}
	return s
}()

func knownOutcome(o ledger.Outcome) bool { return slices.Contains(outcomes, o) }
