package scenario

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
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
	best, bestDist := "", math.MaxInt
	for _, name := range names {
		if dist := editDistance(strings.ToLower(key), name); dist < bestDist {
			best, bestDist = name, dist
		}
	}
	if best != "" && bestDist <= max(1, len(best)/3) {
		return fmt.Sprintf("; did you mean %q?", best), best
	}
	slices.Sort(names)
	return " (known fields: " + strings.Join(names, ", ") + ")", ""
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
