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

	"github.com/faultbench/faultbench/internal/yamlfile"
)

// DefaultSummaryTokens is the size of the mock's summary answer when a
// scenario leaves compaction.summary_tokens out (or 0). Parse fills it in.
const DefaultSummaryTokens = 1000

// Parse reads one scenario from data; file names it in errors and becomes
// Scenario.Path. It reports every problem it finds (syntax, unknown fields,
// values of the wrong type, failed checks) at once, at most 100 of them;
// see Error. Before parsing, a file over the ceilings of
// internal/yamlfile (1.5 MiB, 32 levels of nesting, 256 keys in a
// mapping) or that is not UTF-8 text is refused with its line, and no
// error quotes more than 40 bytes of a value.
func Parse(file string, data []byte) (*Scenario, error) {
	s, _, err := parse(file, data)
	return s, err
}

// LoadFile reads one scenario file. It reads only a regular file (or a
// symbolic link to one): a FIFO, a device or a socket is refused unread.
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
			Msg: fmt.Sprintf("scenario name %s is already used by %s", quote(s.Name), where(prev.Path, namePos[prev])),
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
		// Anything else that is not a regular file (a FIFO, a device)
		// is refused by loadFile, which says what it is.
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
	data, err := yamlfile.ReadFile(path)
	if err != nil {
		var p *yamlfile.Problem
		if errors.As(err, &p) {
			return nil, nil, &Error{File: path, Msg: p.Msg, Err: err}
		}
		return nil, nil, readError(path, err)
	}
	return parse(path, data)
}

// parse reads and checks one scenario; the decoder it returns knows where
// each field was written.
func parse(file string, data []byte) (*Scenario, *decoder, error) {
	d := newDecoder(file)
	if p := yamlfile.Check(data); p != nil {
		return nil, d, &Error{File: file, Line: p.Line, Column: p.Column, Msg: p.Msg, Err: p}
	}
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
	if d.stopped { // what was not read would only raise false alarms
		return nil, d, join(limit(d.errs))
	}
	v := &validator{file: file, pos: d.pos, bad: d.bad, typo: d.typo}
	v.scenario(s)
	if errs := append(d.errs, v.errs...); len(errs) > 0 {
		return nil, d, join(limit(errs))
	}
	if s.Compaction.SummaryTokens == 0 {
		s.Compaction.SummaryTokens = DefaultSummaryTokens
	}
	return s, d, nil
}

// maxErrors is the most problems reported for one file; the rest are
// counted in a last line.
const maxErrors = 100

// limit keeps the first maxErrors of errs, by position, and says how many
// more there were.
func limit(errs []*Error) []*Error {
	if len(errs) <= maxErrors {
		return errs
	}
	sortErrors(errs)
	next := errs[maxErrors]
	more := &Error{File: next.File, Line: next.Line, Column: next.Column,
		Msg: fmt.Sprintf("%d more problems not shown, from here on", len(errs)-maxErrors)}
	return append(errs[:maxErrors:maxErrors], more)
}

// parseYAML parses data into the body of its one document.
func parseYAML(file string, data []byte) (ast.Node, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		e := &Error{File: file, Err: err}
		// Not err.Error(): goccy's prints the file's lines around the
		// error, in time quadratic in a line's length.
		var ye yaml.Error
		if errors.As(err, &ye) {
			e.Msg = "YAML: " + clipTo(ye.GetMessage(), 4*maxQuoted)
			if tk := ye.GetToken(); tk != nil && tk.Position != nil {
				e.Line, e.Column = tk.Position.Line, tk.Position.Column
			}
			e.Msg = yamlhint.Hint(e.Msg, data, e.Line)
		} else {
			e.Msg = clipTo(err.Error(), 4*maxQuoted)
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
