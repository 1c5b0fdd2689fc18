package strategyfile

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/internal/names"
	"github.com/faultbench/faultbench/internal/yamlfile"
	"github.com/faultbench/faultbench/internal/yamlhint"
	"github.com/faultbench/faultbench/recovery"
)

// Parse reads one strategy from data; file names it in errors. A file
// without a name is named after the file, less its extension; either way
// the name follows the rule of scenario names (lower case letters,
// digits, '.', '_', '-', at most 64 bytes), and may be a preset's only
// when the file is that preset unchanged (as `faultbench strategies NAME`
// prints it). Before parsing, a file over MaxFileBytes or the ceilings of
// internal/yamlfile (32 levels, 256 keys in a mapping) or that is not
// UTF-8 text is refused with its line; a file holds one YAML
// document; and every value is checked against the ceilings in
// ceilings.go.
func Parse(file string, data []byte) (recovery.Strategy, error) {
	if len(data) > MaxFileBytes {
		return recovery.Strategy{}, &Error{File: file, Msg: fmt.Sprintf(
			"file too large: %d bytes, over the ceiling of %d bytes (64 KiB) for a strategy file", len(data), MaxFileBytes)}
	}
	if p := yamlfile.Check(data); p != nil {
		return recovery.Strategy{}, &Error{File: file, Line: p.Line, Column: p.Column, Msg: p.Msg}
	}
	tree, err := parser.ParseBytes(data, 0)
	if err != nil {
		return recovery.Strategy{}, asError(file, err, nil)
	}
	body, err := oneDocument(file, tree)
	if err != nil {
		return recovery.Strategy{}, err
	}
	// Every unknown field and every value of the wrong type at once, as
	// the scenario loader reports them; the decoder would stop at the
	// first. The values found wrong are left out of body: the rest is
	// read for the problems of range.
	body, found := checkTree(file, tree, body)
	f, probs := base(body)
	if body != nil {
		err = yaml.NewDecoder(bytes.NewReader(nil), decodeOptions()...).DecodeFromNode(body, &f)
		if err != nil && len(found) == 0 {
			e := asError(file, err, tree)
			e.Msg = yamlhint.Hint(e.Msg, data, e.Line)
			return recovery.Strategy{}, e
		}
	}
	s := f.Strategy
	probs = append(probs, check(s)...)
	if len(found) > 0 || len(probs) > 0 {
		return recovery.Strategy{}, joinErrors(append(found, locate(file, tree, probs...)...))
	}
	s.PromptCache = tidyCache(s.PromptCache)
	named := s.Name != ""
	if !named {
		s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if err := checkName(s); err != nil {
		if named {
			return recovery.Strategy{}, joinErrors(locate(file, tree, problem{path: "$.name", msg: err.Error()}))
		}
		return recovery.Strategy{}, &Error{File: file, Field: "name",
			Msg: "the file has no name field, and its file name will not do: " + err.Error()}
	}
	return s, nil
}

// checkName applies the rule of names, and refuses a preset's name to a
// strategy that is not that preset: a report would show one name for two
// strategies.
func checkName(s recovery.Strategy) error {
	if err := names.Check(s.Name); err != nil {
		return err
	}
	if p, ok := recovery.Preset(s.Name); ok && !bytes.Equal(Marshal(p), Marshal(s)) {
		return fmt.Errorf("%q is a preset's name, and this strategy differs from that preset: give it a name of its own (base: %s starts from the preset)", s.Name, s.Name)
	}
	return nil
}

// base is the file body's base preset, copied, with its name and
// description cleared (the file's strategy is a new one: its name and
// words are its own), and the problem of an unknown base.
func base(body ast.Node) (file, []problem) {
	var f file
	m, ok := body.(*ast.MappingNode)
	if !ok {
		return f, nil
	}
	for _, kv := range m.Values {
		if keyText(kv.Key) != "base" {
			continue
		}
		if yaml.NodeToValue(kv.Value, &f.Base) != nil {
			return f, nil // the checker has reported it
		}
		p, ok := recovery.Preset(f.Base)
		if !ok {
			return f, []problem{{path: "$.base",
				msg: fmt.Sprintf("unknown preset %s (known: %s)", short(f.Base), strings.Join(presetNames(), ", "))}}
		}
		f.Strategy = p.Clone()
		f.Name, f.Description = "", ""
	}
	return f, nil
}

// tidyCache writes a cache's breakpoints once each (none as nil), and its
// default lifetime as 0, as the presets do.
func tidyCache(c recovery.PromptCache) recovery.PromptCache {
	var marks []recovery.Breakpoint
	for _, b := range c.Breakpoints {
		if !slices.Contains(marks, b) {
			marks = append(marks, b)
		}
	}
	c.Breakpoints = marks
	if c.TTL == recovery.CacheTTL5m {
		c.TTL = 0
	}
	return c
}

// oneDocument returns the body of the file's one YAML document (nil for
// an empty file), and refuses a file of more than one, as the scenario
// loader does: the decoder would read the first and ignore the rest.
func oneDocument(file string, tree *ast.File) (ast.Node, error) {
	var body ast.Node
	seen := false
	for _, d := range tree.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		if _, ok := d.Body.(*ast.DirectiveNode); ok {
			continue
		}
		if seen {
			e := &Error{File: file, Msg: "a strategy file holds one YAML document; another begins here"}
			tk := d.Start
			if tk == nil {
				tk = d.Body.GetToken()
			}
			e.Line, e.Column = position(tk)
			return nil, e
		}
		seen = true
		body = d.Body
	}
	switch body.(type) {
	case nil, *ast.NullNode, *ast.CommentGroupNode:
		return nil, &Error{File: file, Msg: "empty file: want a strategy"}
	}
	return body, nil
}

// joinErrors joins errs, sorted by position, as one error: errors.As
// finds the first, and each is one line of its message.
func joinErrors(errs []*Error) error {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
}

// locate turns range problems into errors with the line of each field.
func locate(file string, tree *ast.File, probs ...problem) []*Error {
	var errs []*Error
	for _, p := range probs {
		e := &Error{File: file, Field: fieldOf(p.path), Msg: p.msg}
		if path, err := yaml.PathString(p.path); err == nil {
			if n, err := path.FilterFile(tree); err == nil && n != nil {
				e.Line, e.Column = position(n.GetToken())
			}
		}
		errs = append(errs, e)
	}
	return errs
}

func presetNames() []string {
	var names []string
	for _, s := range recovery.Presets() {
		names = append(names, s.Name)
	}
	return names
}

// Load reads the strategy file at path. It reads only a regular file (or
// a symbolic link to one): a FIFO, a device or a socket is refused unread.
func Load(path string) (recovery.Strategy, error) {
	data, err := yamlfile.ReadFile(path)
	if err != nil {
		var p *yamlfile.Problem
		if errors.As(err, &p) {
			return recovery.Strategy{}, &Error{File: path, Msg: p.Msg}
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return recovery.Strategy{}, &Error{File: path, Msg: "cannot read: " + err.Error()}
	}
	return Parse(path, data)
}

// LoadDir reads every .yaml and .yml file of dir, in name order.
func LoadDir(dir string) ([]recovery.Strategy, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	var out []recovery.Strategy
	var errs []error
	for _, n := range files {
		s, err := Load(filepath.Join(dir, n))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}
