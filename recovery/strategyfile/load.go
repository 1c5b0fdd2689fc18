package strategyfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/internal/yamlhint"
	"github.com/faultbench/faultbench/recovery"
)

// Parse reads one strategy from data; file names it in errors. A file
// without a name is named after the file, less its extension.
func Parse(file string, data []byte) (recovery.Strategy, error) {
	var f doc
	dec := yaml.NewDecoder(bytes.NewReader(data), yaml.DisallowUnknownField(), yaml.Strict())
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return recovery.Strategy{}, &Error{File: file, Msg: "empty file: want a strategy"}
		}
		e := asError(file, err)
		e.Msg = yamlhint.Hint(e.Msg, data, e.Line)
		return recovery.Strategy{}, e
	}
	var s recovery.Strategy
	if f.Base != nil {
		base, ok := recovery.Preset(*f.Base)
		if !ok {
			return recovery.Strategy{}, locate(file, data, problem{path: "$.base",
				msg: fmt.Sprintf("unknown preset %q (known: %s)", *f.Base, strings.Join(presetNames(), ", "))})
		}
		// The file's strategy is a new one: its name and words are its own.
		s = base.Clone()
		s.Name, s.Description = "", ""
	}
	if probs := f.apply(&s); len(probs) > 0 {
		return recovery.Strategy{}, locate(file, data, probs...)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if s.Name == "" {
		return recovery.Strategy{}, &Error{File: file, Field: "name", Msg: "required"}
	}
	return s, nil
}

// locate turns range problems into errors with the line of each field.
func locate(file string, data []byte, probs ...problem) error {
	ast, perr := parser.ParseBytes(data, 0)
	var errs []error
	for _, p := range probs {
		e := &Error{File: file, Field: fieldOf(p.path), Msg: p.msg}
		if perr == nil {
			if path, err := yaml.PathString(p.path); err == nil {
				if n, err := path.FilterFile(ast); err == nil && n != nil {
					e.Line, e.Column = position(n.GetToken())
				}
			}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

func presetNames() []string {
	var names []string
	for _, s := range recovery.Presets() {
		names = append(names, s.Name)
	}
	return names
}

// Load reads the strategy file at path.
func Load(path string) (recovery.Strategy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return recovery.Strategy{}, err
	}
	return Parse(path, data)
}

// LoadDir reads every .yaml and .yml file of dir, in name order.
func LoadDir(dir string) ([]recovery.Strategy, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []recovery.Strategy
	var errs []error
	for _, n := range names {
		s, err := Load(filepath.Join(dir, n))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}
