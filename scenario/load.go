package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/internal/yamlhint"
	"github.com/goccy/go-yaml/token"
)

// DefaultSummaryTokens is the size of the mock's summary answer when a
// scenario leaves compaction.summary_tokens out (or 0). Parse fills it in.
const DefaultSummaryTokens = 1000

// Parse reads one scenario from data; file names it in errors and becomes
// Scenario.Path. It reports every problem it finds (syntax, unknown fields,
// values of the wrong type, failed checks) at once; see Error.
func Parse(file string, data []byte) (*Scenario, error) {
	s, _, err := parse(file, data)
	return s, err
}

// LoadFile reads one scenario file.
func LoadFile(path string) (*Scenario, error) {
	s, _, err := loadFile(path)
	return s, err
}

// Load reads scenario files and folders: a folder contributes every *.yaml
// and *.yml file directly in it (not in its subfolders, and not hidden
// files); a file is read whatever its name. A path given twice, or as a
// file and through its folder, is read once. Load returns the scenarios
// sorted by file path, or every problem in every file at once. Two
// scenarios with the same name are an error naming both files; so are a
// missing path and a folder without scenario files. No paths, no
// scenarios.
func Load(paths ...string) ([]*Scenario, error) {
	var errs []*Error
	var files []string
	seen := map[string]bool{} // absolute paths
	for _, p := range paths {
		found, err := expand(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range found {
			key, err := filepath.Abs(f)
			if err != nil {
				key = f
			}
			if !seen[key] {
				seen[key] = true
				files = append(files, f)
			}
		}
	}
	slices.Sort(files)

	var out []*Scenario
	namePos := map[*Scenario]token.Position{}
	for _, f := range files {
		s, idx, err := loadFile(f)
		if err != nil {
			errs = append(errs, Errors(err)...)
			continue
		}
		out = append(out, s)
		namePos[s] = idx.pos["name"]
	}

	first := map[string]*Scenario{}
	for _, s := range out { // sorted by path: the later file is at fault
		prev, dup := first[s.Name]
		if !dup {
			first[s.Name] = s
			continue
		}
		p := namePos[s]
		errs = append(errs, &Error{
			File: s.Path, Line: p.Line, Column: p.Column, Field: "name",
			Msg: fmt.Sprintf("scenario name %q is already used by %s", s.Name, where(prev.Path, namePos[prev])),
		})
	}
	if len(errs) > 0 {
		return nil, join(errs)
	}
	return out, nil
}

// where is "FILE:LINE" or "FILE".
func where(file string, p token.Position) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", file, p.Line)
	}
	return file
}

// expand lists the scenario files a path stands for.
func expand(p string) ([]string, *Error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, readError(p, err)
	}
	if !info.IsDir() {
		return []string{filepath.Clean(p)}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, readError(p, err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		if strings.HasPrefix(name, ".") || (ext != ".yaml" && ext != ".yml") {
			continue
		}
		full := filepath.Join(p, name)
		if info, err := os.Stat(full); err != nil {
			return nil, readError(full, err)
		} else if info.IsDir() {
			continue
		}
		out = append(out, full)
	}
	if len(out) == 0 {
		return nil, &Error{File: p, Msg: "folder holds no scenario files (*.yaml, *.yml)"}
	}
	return out, nil
}

// readError reports a file that cannot be read, without repeating its name.
func readError(path string, err error) *Error {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &Error{File: path, Msg: "cannot read: " + msg, Err: err}
}

func loadFile(path string) (*Scenario, *decoder, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, readError(path, err)
	}
	return parse(path, data)
}

// parse reads and checks one scenario; the decoder it returns knows where
// each field was written.
func parse(file string, data []byte) (*Scenario, *decoder, error) {
	d := newDecoder(file)
	root, err := parseYAML(file, data)
	if err != nil {
		return nil, d, err
	}
	s := &Scenario{Path: file}
	d.collectAnchors(root)
	switch top := d.unwrap(root, "").(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
	case nil: // an alias that cannot be resolved, or a tag without a value
		if len(d.errs) == 0 {
			d.errorAt(root.GetToken(), "", "no scenario in file")
		}
		return nil, d, join(d.errs)
	default:
		d.typeError(root, "", "want a mapping of scenario fields (name, description, models, turn, ...), got %s", describe(top))
		return nil, d, join(d.errs)
	}
	d.decode(root, reflect.ValueOf(s).Elem(), "")
	v := &validator{file: file, pos: d.pos, bad: d.bad, typo: d.typo}
	v.scenario(s)
	if errs := append(d.errs, v.errs...); len(errs) > 0 {
		return nil, d, join(errs)
	}
	if s.Compaction.SummaryTokens == 0 {
		s.Compaction.SummaryTokens = DefaultSummaryTokens
	}
	return s, d, nil
}

// parseYAML parses data into the body of its one document.
func parseYAML(file string, data []byte) (ast.Node, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		e := &Error{File: file, Msg: err.Error(), Err: err}
		var ye yaml.Error
		if errors.As(err, &ye) {
			e.Msg = "YAML: " + ye.GetMessage()
			if tk := ye.GetToken(); tk != nil && tk.Position != nil {
				e.Line, e.Column = tk.Position.Line, tk.Position.Column
			}
			e.Msg = yamlhint.Hint(e.Msg, data, e.Line)
		}
		return nil, e
	}
	var body ast.Node
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if _, ok := doc.Body.(*ast.DirectiveNode); ok { // %YAML 1.2 before ---
			continue
		}
		if body != nil {
			e := &Error{File: file, Msg: "a scenario file holds one YAML document; another begins here"}
			tk := doc.Start
			if tk == nil {
				tk = doc.Body.GetToken()
			}
			if tk != nil && tk.Position != nil {
				e.Line, e.Column = tk.Position.Line, tk.Position.Column
			}
			return nil, e
		}
		body = doc.Body
	}
	if body == nil {
		return nil, &Error{File: file, Msg: "no scenario in file: it is empty"}
	}
	return body, nil
}
