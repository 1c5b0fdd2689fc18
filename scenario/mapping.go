package scenario

import (
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Mappings as YAML writes them: keys, merge keys (<<), anchors and aliases.

// resolveAlias finds the value an alias refers to.
func (d *decoder) resolveAlias(a *ast.AliasNode, path string) (ast.Node, string, bool) {
	name := tokenText(a.Value)
	if name == "" {
		d.errorAt(a.GetToken(), path, "alias without a name")
		return nil, "", false
	}
	target, ok := d.anchors[name]
	switch {
	case !ok:
		d.errorAt(a.GetToken(), path, "unknown alias *%s", clip(name))
		return nil, "", false
	case d.expanding[name]:
		d.errorAt(a.GetToken(), path, "alias *%s refers to itself", clip(name))
		return nil, "", false
	}
	return target, name, true
}

// unwrap looks through tags, anchors and aliases to the node that holds a
// value. It returns nil when an alias cannot be resolved (already reported).
func (d *decoder) unwrap(n ast.Node, path string) ast.Node {
	for range 100 {
		switch x := n.(type) {
		case *ast.TagNode:
			n = x.Value
		case *ast.AnchorNode:
			n = x.Value
		case *ast.AliasNode:
			target, _, ok := d.resolveAlias(x, path)
			if !ok {
				return nil
			}
			n = target
		case *ast.MappingKeyNode:
			n = x.Value
		default:
			return n
		}
	}
	d.errorAt(n.GetToken(), path, "too many nested tags and aliases")
	return nil
}

// entry is one key of a mapping, after merge keys (<<) are applied.
type entry struct {
	key   string
	keyTk *token.Token
	value ast.Node
}

// entries lists a mapping's keys in order. Keys written in the mapping win
// over merged ones (<<: *anchor), and earlier merges over later ones, as
// YAML's merge key says. ok is false when n is no mapping.
func (d *decoder) entries(n ast.Node, path string) (out []entry, ok bool) {
	var values []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		values = x.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{x}
	default:
		return nil, false
	}
	seen := map[string]bool{}
	var merges []ast.Node
	for _, mv := range values {
		if mv == nil || mv.Key == nil {
			continue
		}
		if mv.Key.IsMergeKey() {
			merges = append(merges, mv.Value)
			continue
		}
		key, ok := d.keyText(mv.Key, path)
		if !ok {
			continue
		}
		seen[key] = true
		out = append(out, entry{key: key, keyTk: mv.Key.GetToken(), value: mv.Value})
	}
	for _, m := range merges {
		for _, e := range d.mergeEntries(m, path) {
			if !seen[e.key] {
				seen[e.key] = true
				out = append(out, e)
			}
		}
	}
	return out, true
}

// mergeEntries reads the value of a merge key: a mapping, an alias of
// one, or a list of those.
func (d *decoder) mergeEntries(n ast.Node, path string) []entry {
	if n == nil {
		return nil
	}
	if !d.spend(n, path) {
		return nil
	}
	if a, ok := n.(*ast.AliasNode); ok {
		target, name, ok := d.resolveAlias(a, path)
		if !ok {
			return nil
		}
		d.expanding[name] = true
		defer delete(d.expanding, name)
		return d.mergeEntries(target, path)
	}
	tk := n.GetToken()
	n = d.unwrap(n, path)
	if n == nil {
		return nil
	}
	if seq, ok := n.(*ast.SequenceNode); ok {
		var out []entry
		for _, item := range seq.Values {
			out = append(out, d.mergeEntries(item, path)...)
		}
		return out
	}
	out, ok := d.entries(n, path)
	if !ok {
		d.errorAt(tk, path, "<< merges a mapping or a list of mappings, got %s", describe(n))
	}
	return out
}

// keyText is a mapping key as a string.
func (d *decoder) keyText(k ast.MapKeyNode, path string) (string, bool) {
	n := d.unwrap(k, path)
	switch x := n.(type) {
	case nil:
		return "", false
	case *ast.StringNode:
		return x.Value, true
	case *ast.NullNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return tokenText(x), true
	default:
		d.errorAt(k.GetToken(), path, "a key must be a string, got %s", describe(n))
		return "", false
	}
}
