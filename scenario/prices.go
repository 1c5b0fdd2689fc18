package scenario

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

// MaxPriceFileBytes is the largest prices file read: 64 KiB, room for
// the 256 models a mapping may hold (internal/yamlfile's MaxKeys) at
// more than 200 bytes each. The suite's prices fit in 300 bytes.
const MaxPriceFileBytes = 64 << 10

// PriceFile is a file of prices per model, as `faultbench run --prices`
// reads it (docs/cost.md): a mapping from a model's name to its price,
// with the keys of models.<name>.price, that overrides the scenarios'
// own prices:
//
//	sonnet: {input: 3, output: 15, cache_read: 0.3}
//	backup: {input: 0.8, output: 4}
type PriceFile struct {
	// Path names the file in errors.
	Path string
	// Prices is the price of each model the file names, as written
	// (Apply resolves no cache price: a scenario's own Resolved does).
	Prices map[string]Price
	pos    map[string]token.Position // model name → where it is written
}

// LoadPrices reads the prices file at path. It reads only a regular
// file (or a symbolic link to one) of at most MaxPriceFileBytes.
func LoadPrices(path string) (*PriceFile, error) {
	f, info, err := yamlfile.OpenRegular(path)
	if err != nil {
		var p *yamlfile.Problem
		if errors.As(err, &p) {
			return nil, &Error{File: path, Msg: p.Msg, Err: err}
		}
		return nil, readError(path, err)
	}
	defer f.Close()
	if info.Size() > MaxPriceFileBytes {
		return nil, priceFileTooLarge(path, info.Size())
	}
	// A file's size can lie (/proc reports 0) or grow while it is read:
	// read one byte past the ceiling to know.
	data, err := io.ReadAll(io.LimitReader(f, MaxPriceFileBytes+1))
	if err != nil {
		return nil, readError(path, err)
	}
	if len(data) > MaxPriceFileBytes {
		return nil, priceFileTooLarge(path, -1)
	}
	return ParsePrices(path, data)
}

// priceFileTooLarge refuses a prices file over MaxPriceFileBytes (size
// -1: it grew while it was read).
func priceFileTooLarge(path string, size int64) *Error {
	msg := fmt.Sprintf("file too large: more than %d bytes (64 KiB), the ceiling for a prices file", MaxPriceFileBytes)
	if size >= 0 {
		msg = fmt.Sprintf("file too large: %d bytes, over the ceiling of %d bytes (64 KiB) for a prices file", size, MaxPriceFileBytes)
	}
	return &Error{File: path, Msg: msg, Err: yamlfile.ErrTooLarge}
}

// ParsePrices reads a prices file from data; file names it in errors.
// Every problem is reported at once, with its line, as Parse reports a
// scenario's: YAML syntax, a model whose price is not a mapping of
// input, output, cache_write_5m, cache_write_1h and cache_read, an
// unknown key, a price that is not a number between 0 and MaxPrice. No
// error quotes more than 40 bytes of the file.
func ParsePrices(file string, data []byte) (*PriceFile, error) {
	if len(data) > MaxPriceFileBytes {
		return nil, priceFileTooLarge(file, int64(len(data)))
	}
	d := newDecoder(file)
	if p := yamlfile.Check(data); p != nil {
		return nil, &Error{File: file, Line: p.Line, Column: p.Column, Msg: p.Msg, Err: p}
	}
	root, err := parseYAML(file, data)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && strings.HasPrefix(e.Msg, "no scenario in file") {
			e.Msg = "no prices in file: it is empty; want a mapping such as  sonnet: {input: 3, output: 15}"
		}
		if errors.As(err, &e) && strings.HasPrefix(e.Msg, "a scenario file holds one YAML document") {
			e.Msg = strings.Replace(e.Msg, "a scenario file", "a prices file", 1)
		}
		return nil, err
	}
	d.collectAnchors(root)
	top := d.unwrap(root, "")
	entries, ok := d.entries(top, "")
	if !ok {
		if len(d.errs) == 0 {
			d.typeError(root, "", "want a mapping from model names to prices, such as  sonnet: {input: 3, output: 15}, got %s", describe(top))
		}
		return nil, join(d.errs)
	}
	f := &PriceFile{Path: file, Prices: map[string]Price{}, pos: map[string]token.Position{}}
	v := &validator{file: file, pos: d.pos, bad: d.bad, typo: d.typo}
	for _, e := range entries {
		path := keyPath("", e.key)
		d.mark(path, e.keyTk)
		if e.keyTk != nil && e.keyTk.Position != nil {
			f.pos[e.key] = *e.keyTk.Position
		}
		if e.key == "" {
			d.errorAt(e.keyTk, path, "a model's name cannot be empty")
			continue
		}
		if _, isNull := d.unwrap(e.value, path).(*ast.NullNode); isNull || e.value == nil {
			d.bad[path] = true
			d.errorAt(e.keyTk, path, "want the model's price, a mapping of input, output, cache_write_5m, cache_write_1h, cache_read (dollars per million tokens)")
			continue
		}
		var p Price
		d.decode(e.value, reflect.ValueOf(&p).Elem(), path)
		if d.stopped {
			return nil, join(limit(d.errs))
		}
		v.price(path, p)
		f.Prices[e.key] = p
	}
	if len(entries) == 0 {
		d.errorAt(root.GetToken(), "", "no prices in file: want a mapping such as  sonnet: {input: 3, output: 15}")
	}
	if errs := append(d.errs, v.errs...); len(errs) > 0 {
		return nil, join(limit(errs))
	}
	return f, nil
}

// Apply gives every model of scs that f names f's price, over the
// price its scenario gives it (a model without one gets one). A model f
// names that no scenario of scs declares is an error at its line, with
// the models the scenarios declare: a misspelt name would otherwise
// leave the scenario's price in force unseen. Nothing is changed when
// there is an error.
func (f *PriceFile) Apply(scs []*Scenario) error {
	declared := map[string]bool{}
	for _, sc := range scs {
		for name := range sc.Models {
			declared[name] = true
		}
	}
	known := slices.Sorted(maps.Keys(declared))
	var errs []*Error
	for _, name := range slices.Sorted(maps.Keys(f.Prices)) {
		if declared[name] {
			continue
		}
		at := f.pos[name]
		msg := fmt.Sprintf("no scenario of the run declares model %s, so its price would apply to nothing", quote(name))
		if typo := typoOf(name, known); typo != "" {
			msg += fmt.Sprintf("; did you mean %s?", quote(typo))
		}
		msg += " (the models: " + strings.Join(quoteAll(known, 20), ", ") + ")"
		errs = append(errs, &Error{File: f.Path, Line: at.Line, Column: at.Column, Field: keyPath("", name), Msg: msg})
	}
	if len(errs) > 0 {
		return join(limit(errs))
	}
	for _, sc := range scs {
		for name, m := range sc.Models {
			if p, ok := f.Prices[name]; ok {
				m.Price = &p
				sc.Models[name] = m
			}
		}
	}
	return nil
}

// quoteAll quotes the first n names and counts the rest.
func quoteAll(names []string, n int) []string {
	var out []string
	for i, s := range names {
		if i == n {
			out = append(out, fmt.Sprintf("and %d more", len(names)-n))
			break
		}
		out = append(out, quote(s))
	}
	return out
}
