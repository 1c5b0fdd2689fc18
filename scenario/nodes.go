package scenario

import (
	"reflect"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/faultbench/faultbench/internal/yamlhint"
)

// structFields maps the yaml names of t's fields to their indexes.
func structFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			out[name] = i
		}
	}
	return out
}

// yamlName is the key a field is written under, "" when it is not read.
func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	switch tag {
	case "-":
		return ""
	case "":
		return strings.ToLower(f.Name)
	}
	return tag
}

// suggest names the field the author probably meant (and returns it), or
// lists them all.
func suggest(key string, t reflect.Type) (hint, meant string) {
	var names []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			names = append(names, name)
		}
	}
	meant, _ = yamlhint.Meant(key, names)
	return yamlhint.Suggestion(key, names), meant
}

// start is the token where a node begins as the reader sees it: the first
// key of a block mapping rather than its first colon.
func start(n ast.Node) *token.Token {
	if m, ok := n.(*ast.MappingNode); ok && !m.IsFlowStyle && len(m.Values) > 0 && m.Values[0] != nil && m.Values[0].Key != nil {
		return m.Values[0].Key.GetToken()
	}
	return n.GetToken()
}

// quoted reports whether a string was written in quotes.
func quoted(n *ast.StringNode) bool {
	tk := n.GetToken()
	return tk != nil && (tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType)
}

// tokenText is the source text of a node's token, "" when there is none.
func tokenText(n ast.Node) string {
	if n == nil {
		return ""
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// describe names the kind of a node for an error message.
func describe(n ast.Node) string {
	switch x := n.(type) {
	case nil:
		return "nothing"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode:
		return "string " + quote(x.Value)
	case *ast.LiteralNode:
		return "a block of text"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "number " + clip(tokenText(x))
	case *ast.BoolNode:
		return clip(tokenText(x))
	case *ast.NullNode:
		return "null"
	default:
		return x.Type().YAMLName()
	}
}
