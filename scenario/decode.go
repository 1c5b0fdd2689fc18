package scenario

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// The decoder fills a Scenario from the AST that goccy/go-yaml's parser
// builds, instead of calling yaml.NodeToValue on the whole document: the
// library's decoder stops at the first problem (and, with
// DisallowUnknownField, names one unknown field picked in map order), while
// a scenario author wants every problem in the file at once, in a stable
// order. Walking the AST also records where each field sits, by its path,
// so the checks in validate.go can name a line.
//
// It follows the library's rules where they meet (yaml tags name the
// fields, "-" is skipped, Duration reads like Duration.UnmarshalYAML) and
// is stricter where the library is lenient: an integer field refuses 4.5
// and "4", a bool field refuses "yes".

// maxNodes bounds the values that aliases may expand to in one file, so
// that aliases of aliases ("billion laughs") cannot make a small file cost
// minutes. Values written out count nothing: the file's size ceiling
// (internal/yamlfile) bounds them.
const maxNodes = 100_000

var durationType = reflect.TypeFor[Duration]()

type decoder struct {
	file    string
	anchors map[string]ast.Node
	// expanding holds the aliases being expanded, to refuse an anchor
	// that contains itself.
	expanding map[string]bool
	nodes     int // values read through an alias
	// stopped is set by an error that makes the rest of the file
	// meaningless (the alias cap): nothing more is read or checked.
	stopped bool
	pos     map[string]token.Position // field path → where it is written
	bad     map[string]bool           // field paths that failed to decode
	// typo holds the paths of structs with a misspelt field and of the
	// fields meant: a check that fails there is a consequence.
	typo map[string]bool
	errs []*Error
}

func newDecoder(file string) *decoder {
	return &decoder{
		file:      file,
		anchors:   map[string]ast.Node{},
		expanding: map[string]bool{},
		pos:       map[string]token.Position{},
		bad:       map[string]bool{},
		typo:      map[string]bool{},
	}
}

// errorAt records a problem at tk's position (none when tk is nil).
func (d *decoder) errorAt(tk *token.Token, path, format string, args ...any) {
	e := &Error{File: d.file, Field: clipField(path), Msg: fmt.Sprintf(format, args...)}
	if tk != nil && tk.Position != nil {
		e.Line, e.Column = tk.Position.Line, tk.Position.Column
	}
	d.errs = append(d.errs, e)
}

// mark notes where the field at path is written.
func (d *decoder) mark(path string, tk *token.Token) {
	if tk != nil && tk.Position != nil {
		d.pos[path] = *tk.Position
	}
}

// typeError records a value of the wrong kind; the field is then skipped
// by the checks.
func (d *decoder) typeError(n ast.Node, path, format string, args ...any) {
	d.bad[path] = true
	d.errorAt(n.GetToken(), path, format, args...)
}

// spend counts one more node read through an alias, and says false
// (once with an error, which stops the decoder) when aliases have expanded
// past maxNodes.
func (d *decoder) spend(n ast.Node, path string) bool {
	if d.stopped {
		return false
	}
	if len(d.expanding) == 0 {
		return true
	}
	d.nodes++
	if d.nodes > maxNodes {
		d.errorAt(n.GetToken(), path, "aliases expand to more than %d values (aliases of aliases?)", maxNodes)
		d.stopped = true
		return false
	}
	return true
}

// collectAnchors notes every anchor in the document, so an alias finds its
// value wherever the anchor sits. A later anchor of the same name wins.
func (d *decoder) collectAnchors(root ast.Node) {
	for _, n := range ast.Filter(ast.AnchorType, root) {
		a := n.(*ast.AnchorNode)
		if name := tokenText(a.Name); name != "" && a.Value != nil {
			d.anchors[name] = a.Value
		}
	}
}

// decode fills v from n; path names v in errors.
func (d *decoder) decode(n ast.Node, v reflect.Value, path string) {
	if n == nil {
		return
	}
	if !d.spend(n, path) {
		return
	}
	switch x := n.(type) {
	case *ast.NullNode:
		return // null leaves the zero value
	case *ast.TagNode:
		if x.Value == nil {
			return
		}
		d.decode(x.Value, v, path)
		return
	case *ast.AnchorNode:
		if x.Value == nil {
			return
		}
		d.decode(x.Value, v, path)
		return
	case *ast.AliasNode:
		target, name, ok := d.resolveAlias(x, path)
		if !ok {
			d.bad[path] = true
			return
		}
		d.expanding[name] = true
		d.decode(target, v, path)
		delete(d.expanding, name)
		return
	}

	if v.Type() == durationType {
		d.decodeDuration(n, v, path)
		return
	}
	if v.Type() == faultType {
		d.decodeFault(n, v, path)
		return
	}
	if v.Type() == startType {
		d.decodeStart(n, v, path)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.decodeStruct(n, v, path)
	case reflect.Map:
		d.decodeMap(n, v, path)
	case reflect.Slice:
		d.decodeSlice(n, v, path)
	case reflect.String:
		d.decodeString(n, v, path)
	case reflect.Int, reflect.Int64:
		d.decodeInt(n, v, path)
	case reflect.Bool:
		d.decodeBool(n, v, path)
	case reflect.Float64:
		d.decodeFloat(n, v, path)
	case reflect.Pointer:
		// An optional block or value (models.<name>.cache): given, it is
		// there even when empty.
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), path)
	default:
		// Only reached if types.go gains a field of a kind the decoder
		// has not learned; fail loudly rather than drop the value.
		d.typeError(n, path, "cannot decode into %s (loader bug)", v.Type())
	}
}

func (d *decoder) decodeStruct(n ast.Node, v reflect.Value, path string) {
	entries, ok := d.entries(n, path)
	if !ok {
		d.typeError(n, path, "want a mapping, got %s", describe(n))
		return
	}
	fields := structFields(v.Type())
	for _, e := range entries {
		sub := fieldPath(path, e.key)
		i, ok := fields[e.key]
		if !ok {
			hint, meant := suggest(e.key, v.Type())
			d.errorAt(e.keyTk, sub, "unknown field %s%s", quote(e.key), hint)
			if meant != "" {
				// A misspelt field: do not also complain that the
				// field it meant is missing.
				d.typo[path] = true
				d.typo[joinPath(path, meant)] = true
			}
			continue
		}
		d.mark(sub, e.keyTk)
		d.decode(e.value, v.Field(i), sub)
	}
}

func (d *decoder) decodeMap(n ast.Node, v reflect.Value, path string) {
	entries, ok := d.entries(n, path)
	if !ok {
		d.typeError(n, path, "want a mapping, got %s", describe(n))
		return
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(v.Type(), len(entries)))
	}
	for _, e := range entries {
		sub := keyPath(path, e.key)
		d.mark(sub, e.keyTk)
		elem := reflect.New(v.Type().Elem()).Elem()
		d.decode(e.value, elem, sub)
		v.SetMapIndex(reflect.ValueOf(e.key).Convert(v.Type().Key()), elem)
	}
}

func (d *decoder) decodeSlice(n ast.Node, v reflect.Value, path string) {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		d.typeError(n, path, "want a list, got %s", describe(n))
		return
	}
	out := reflect.MakeSlice(v.Type(), len(seq.Values), len(seq.Values))
	for i, item := range seq.Values {
		sub := path + "[" + strconv.Itoa(i) + "]"
		if item != nil {
			d.mark(sub, start(item))
		} else if i < len(seq.Entries) && seq.Entries[i] != nil {
			d.mark(sub, seq.Entries[i].GetToken())
		}
		d.decode(item, out.Index(i), sub)
	}
	v.Set(out)
}

func (d *decoder) decodeString(n ast.Node, v reflect.Value, path string) {
	switch x := n.(type) {
	case *ast.StringNode:
		v.SetString(x.Value)
	case *ast.LiteralNode:
		if x.Value != nil {
			v.SetString(x.Value.Value)
		}
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		// retry-after: 2 means the text "2".
		v.SetString(tokenText(x))
	default:
		d.typeError(n, path, "want a string, got %s", describe(n))
	}
}

var numeric = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

// floatText is a number as YAML 1.2's core schema writes it, the forms
// the YAML parser leaves as a string among them (1e308).
var floatText = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

func (d *decoder) decodeInt(n ast.Node, v reflect.Value, path string) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		switch i := x.Value.(type) {
		case int64:
			if !v.OverflowInt(i) {
				v.SetInt(i)
				return
			}
		case uint64:
			if i <= math.MaxInt64 && !v.OverflowInt(int64(i)) {
				v.SetInt(int64(i))
				return
			}
		}
		d.typeError(n, path, "number %s is too large", clip(tokenText(x)))
	case *ast.FloatNode:
		if x.Value == math.Trunc(x.Value) && math.Abs(x.Value) < 1<<53 {
			v.SetInt(int64(x.Value))
			return
		}
		d.typeError(n, path, "want a whole number, got %s", clip(tokenText(x)))
	case *ast.StringNode:
		if numeric.MatchString(x.Value) && !quoted(x) {
			d.typeError(n, path, "number %s is too large", clip(x.Value))
			return
		}
		d.typeError(n, path, "want a whole number, got string %s", quote(x.Value))
	default:
		d.typeError(n, path, "want a whole number, got %s", describe(n))
	}
}

func (d *decoder) decodeFloat(n ast.Node, v reflect.Value, path string) {
	switch x := n.(type) {
	case *ast.FloatNode:
		v.SetFloat(x.Value)
	case *ast.IntegerNode:
		switch i := x.Value.(type) {
		case int64:
			v.SetFloat(float64(i))
		case uint64:
			v.SetFloat(float64(i))
		}
	case *ast.StringNode:
		// The YAML parser reads 1e308 (an exponent without a dot) as a
		// string; YAML 1.2's core schema and the user read a number.
		f, err := strconv.ParseFloat(x.Value, 64)
		switch {
		case quoted(x) || !floatText.MatchString(x.Value):
			d.typeError(n, path, "want a number, got %s", describe(n))
		case err != nil:
			d.typeError(n, path, "number %s is too large", clip(x.Value))
		default:
			v.SetFloat(f)
		}
	default:
		d.typeError(n, path, "want a number, got %s", describe(n))
	}
}

func (d *decoder) decodeBool(n ast.Node, v reflect.Value, path string) {
	if b, ok := n.(*ast.BoolNode); ok {
		v.SetBool(b.Value)
		return
	}
	d.typeError(n, path, "want true or false, got %s", describe(n))
}

func (d *decoder) decodeDuration(n ast.Node, v reflect.Value, path string) {
	var raw any
	switch x := n.(type) {
	case *ast.IntegerNode:
		raw = x.Value
	case *ast.FloatNode:
		raw = x.Value
	case *ast.StringNode:
		raw = x.Value
	default:
		d.typeError(n, path, "want a duration such as \"30s\", got %s", describe(n))
		return
	}
	dur, err := durationOf(raw)
	if err != nil {
		d.typeError(n, path, "%v", err)
		return
	}
	v.Set(reflect.ValueOf(dur))
}
