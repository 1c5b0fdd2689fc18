package scenario

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// The kinds of Fault.
const (
	// FaultReset resets the connection (TCP RST) before any header is sent.
	FaultReset = "reset"
	// FaultHang sends nothing and holds the connection until the client
	// gives up (or the server shuts down).
	FaultHang = "hang"
	// FaultMalformed answers HTTP 200 with a body that is not valid JSON;
	// a stream sends message_start, then an event whose JSON is broken.
	FaultMalformed = "malformed"
	// FaultEmpty answers HTTP 200 with no body; a stream sends no event.
	FaultEmpty = "empty"
	// FaultGarbage sends bytes that are not HTTP, then closes the
	// connection.
	FaultGarbage = "garbage"
	// FaultCut sends After stream events, then drops the connection. A
	// body that does not stream is cut half-way instead.
	FaultCut = "cut"
	// FaultError sends After stream events, then an SSE error event
	// (overloaded_error unless the rule's type says otherwise) and ends the
	// stream. A request that does not stream gets that error as a status.
	FaultError = "error"
)

// Unserved reports whether the fault sends no HTTP answer at all (a
// reset before any header, a hang, bytes that are not HTTP): the request
// never reached the model, so it reads and writes no prompt cache. The
// others answer 200 first: the model took the prompt.
func (f Fault) Unserved() bool {
	switch f.Kind {
	case FaultReset, FaultHang, FaultGarbage:
		return true
	}
	return false
}

// Fault is a transport or stream fault a rule answers with (docs/scenario-format.md). The
// faults that stand alone are written as a word:
//
//	fault: reset      # connection reset by peer, before any header
//	fault: hang       # nothing, until the client gives up
//	fault: malformed  # HTTP 200 whose body is not valid JSON
//	fault: empty      # HTTP 200 with no body
//	fault: garbage    # bytes that are not HTTP, then the connection closes
//
// and the faults of an answer in flight as a mapping:
//
//	fault: {cut_after: 5}             # 5 stream events, then the connection drops
//	fault: {error_after: 5}           # 5 stream events, then an SSE error event
//	fault: {dribble: 500ms}           # each event 500 ms after the one before
//	fault: {delay: 20s}               # 20 s before the headers, then the answer
//	fault: {dribble: 1s, cut_after: 8}
//
// dribble and delay combine with each other and with cut_after or
// error_after; without either, the answer is a complete one, only slow. A
// body that does not stream dribbles in pieces of 64 bytes.
type Fault struct {
	// Kind is one of the Fault* constants, or "" for an answer that is
	// only slow (Dribble, Delay).
	Kind string
	// After is how many stream events go out before a cut or an error.
	After int
	// Dribble is the wait before each event (or piece of a body).
	Dribble Duration
	// Delay is the wait before the headers.
	Delay Duration
}

// IsZero reports whether f is no fault at all.
func (f Fault) IsZero() bool { return f == Fault{} }

// String writes f as it is written in a scenario file: "reset", or
// "{cut_after: 5, dribble: 500ms}".
func (f Fault) String() string {
	switch f.Kind {
	case FaultReset, FaultHang, FaultMalformed, FaultEmpty, FaultGarbage:
		if f.Delay == 0 && f.Dribble == 0 {
			return f.Kind
		}
	}
	var parts []string
	switch f.Kind {
	case FaultCut:
		parts = append(parts, "cut_after: "+strconv.Itoa(f.After))
	case FaultError:
		parts = append(parts, "error_after: "+strconv.Itoa(f.After))
	case "":
	default:
		parts = append(parts, "kind: "+f.Kind)
	}
	if f.Dribble != 0 {
		parts = append(parts, "dribble: "+f.Dribble.String())
	}
	if f.Delay != 0 {
		parts = append(parts, "delay: "+f.Delay.String())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// faultWords are the faults written as a word.
var faultWords = []string{FaultReset, FaultHang, FaultMalformed, FaultEmpty, FaultGarbage}

// faultMapping is the mapping form of a fault, as written.
type faultMapping struct {
	CutAfter   int      `yaml:"cut_after"`
	ErrorAfter int      `yaml:"error_after"`
	Dribble    Duration `yaml:"dribble"`
	Delay      Duration `yaml:"delay"`
}

var faultType = reflect.TypeFor[Fault]()

// decodeFault reads a fault written as a word or as a mapping; the word
// itself is checked by the validator.
func (d *decoder) decodeFault(n ast.Node, v reflect.Value, path string) {
	switch x := n.(type) {
	case *ast.StringNode:
		v.Set(reflect.ValueOf(Fault{Kind: x.Value}))
	case *ast.MappingNode, *ast.MappingValueNode:
		entries, _ := d.entries(n, path)
		if len(entries) == 0 {
			d.typeError(n, path, "an empty fault: give cut_after, error_after, dribble or delay, or write a word such as reset")
			return
		}
		var m faultMapping
		d.decodeStruct(n, reflect.ValueOf(&m).Elem(), path)
		f := Fault{Dribble: m.Dribble, Delay: m.Delay}
		_, cut := d.pos[joinPath(path, "cut_after")]
		_, failAfter := d.pos[joinPath(path, "error_after")]
		switch {
		case cut && failAfter:
			d.errorAt(start(n), path, "takes cut_after or error_after, not both")
			d.bad[path] = true
		case cut:
			f.Kind, f.After = FaultCut, m.CutAfter
		case failAfter:
			f.Kind, f.After = FaultError, m.ErrorAfter
		}
		v.Set(reflect.ValueOf(f))
	default:
		d.typeError(n, path, "want a fault such as %s, or a mapping such as {cut_after: 3}, got %s",
			strings.Join(faultWords, ", "), describe(n))
	}
}

// fault checks a rule's fault; path is respond.fault.
func (v *validator) fault(path string, f Fault) {
	switch f.Kind {
	case FaultReset, FaultHang, FaultGarbage:
		if f.Dribble != 0 {
			v.errorf(path, "%s sends no body to dribble", f.Kind)
		}
	case FaultMalformed, FaultEmpty, "":
	case FaultCut, FaultError:
		if f.After < 0 {
			v.errorf(joinPath(path, f.Kind+"_after"), "must be >= 0 (the events sent first), got %d", f.After)
		}
	default:
		v.errorf(path, "%s is not a fault: use %s, or a mapping of cut_after, error_after, dribble and delay",
			quote(f.Kind), strings.Join(faultWords, ", "))
		return
	}
	if f.After != 0 && f.Kind != FaultCut && f.Kind != FaultError {
		v.errorf(path, "After (%d) only goes with a cut or an error", f.After)
	}
	if f.Dribble < 0 {
		v.errorf(joinPath(path, "dribble"), "must not be negative, got %s", f.Dribble)
	}
	if f.Delay < 0 {
		v.errorf(joinPath(path, "delay"), "must not be negative, got %s", f.Delay)
	}
}

// describeRespond names what a respond holds, for an error message.
func describeRespond(r Respond) string {
	var parts []string
	if r.OK {
		parts = append(parts, "ok")
	}
	if r.Status != 0 {
		parts = append(parts, fmt.Sprintf("status %d", r.Status))
	}
	if !r.Fault.IsZero() {
		parts = append(parts, "fault "+r.Fault.String())
	}
	if len(r.ToolUse) > 0 {
		parts = append(parts, "tool_use")
	}
	return strings.Join(parts, " and ")
}
