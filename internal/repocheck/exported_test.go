package repocheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// internalPath reports whether an import path is an internal package, of
// this module or of another: one a user of the public package cannot
// import.
func internalPath(p string) bool {
	return strings.Contains(p, "/internal/") || strings.HasSuffix(p, "/internal") || strings.HasPrefix(p, "internal/")
}

// publicPackage reports whether a folder of the module (slash-separated,
// "." for the root) is a package users can import: not internal, not the
// command.
func publicPackage(pkg string) bool {
	return !internalPath(pkg) && pkg != "internal" && !under(pkg, "cmd")
}

// internalRefs lists the references in the exported API of one file to
// types (or values) of internal packages: the signatures of exported
// functions and of exported methods of exported types, exported types
// (their exported fields and methods, an alias's target), and exported
// variables and constants (their declared type, or the internal call or
// literal that gives it).
func internalRefs(fset *token.FileSet, f *ast.File) []string {
	internal := map[string]string{} // local name → path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !internalPath(p) {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = p
	}
	if len(internal) == 0 {
		return nil
	}
	var out []string
	check := func(what string, n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit: // a function's body is no signature
				return false
			case *ast.StructType:
				for _, fl := range x.Fields.List {
					if exportedField(fl) {
						checkNode(fset, internal, what, fl.Type, &out)
					}
				}
				return false
			case *ast.InterfaceType:
				for _, m := range x.Methods.List {
					if len(m.Names) == 0 || m.Names[0].IsExported() {
						checkNode(fset, internal, what, m.Type, &out)
					}
				}
				return false
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok {
					if p, ok := internal[id.Name]; ok {
						out = append(out, fmt.Sprintf("%s: %s names %s.%s (%s)", fset.Position(x.Pos()), what, id.Name, x.Sel.Name, p))
					}
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			what := d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				what = recv + "." + what
				check(what, d.Recv)
			}
			check(what, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						check("type "+s.Name.Name, s.Type)
					}
				case *ast.ValueSpec:
					for i, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						check(n.Name, s.Type)
						if s.Type == nil && i < len(s.Values) {
							check(n.Name, typeOf(s.Values[i]))
						}
					}
				}
			}
		}
	}
	return out
}

// typeOf is the part of a value that gives a variable its type when it
// declares none: a composite literal's type, the function called, the
// operand of &, or a name; nil for the rest (a literal's elements give
// none).
func typeOf(e ast.Expr) ast.Node {
	switch x := e.(type) {
	case *ast.CompositeLit:
		return x.Type
	case *ast.CallExpr:
		return x.Fun
	case *ast.UnaryExpr:
		return typeOf(x.X)
	case *ast.ParenExpr:
		return typeOf(x.X)
	case *ast.SelectorExpr, *ast.Ident:
		return x
	}
	return nil
}

func checkNode(fset *token.FileSet, internal map[string]string, what string, n ast.Node, out *[]string) {
	ast.Inspect(n, func(x ast.Node) bool {
		if sel, ok := x.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if p, ok := internal[id.Name]; ok {
					*out = append(*out, fmt.Sprintf("%s: %s names %s.%s (%s)", fset.Position(sel.Pos()), what, id.Name, sel.Sel.Name, p))
				}
			}
		}
		return true
	})
}

// exportedField reports whether a struct field shows in go doc: a named
// exported field, or an embedded type whose name is exported.
func exportedField(fl *ast.Field) bool {
	if len(fl.Names) == 0 {
		return ast.IsExported(receiverName(fl.Type))
	}
	for _, n := range fl.Names {
		if n.IsExported() {
			return true
		}
	}
	return false
}

// receiverName is the type name of a receiver or an embedded field: T,
// *T, T[P], pkg.T.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// TestPublicAPINamesNoInternalType: go doc of every public package names
// only types a user can import. An exported signature, field, alias or
// variable that names a type of an internal package is a type the user
// can hold but not name or build.
func TestPublicAPINamesNoInternalType(t *testing.T) {
	r := root(t)
	files := 0
	err := eachSource(r, func(path string) error {
		rel, _ := filepath.Rel(r, filepath.Dir(path))
		if !publicPackage(filepath.ToSlash(rel)) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, ref := range internalRefs(fset, f) {
			t.Error(strings.TrimPrefix(ref, r+"/"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("checked %d files; the walk missed the module", files)
	}
}

// TestInternalRefsSeesALeak guards the check itself: each way an internal
// type reaches go doc is found, and what go doc does not show is not.
func TestInternalRefsSeesALeak(t *testing.T) {
	const src = `package p

import (
	"example.com/m/internal/clock"
	c2 "example.com/m/internal/other"
)

func A(v *clock.Virtual) {}
func B() (c2.T, error) { return c2.T{}, nil }
type S struct {
	Clock clock.Clock
	hidden clock.Clock
	clock.Embedded
}
type I interface{ M() clock.T }
type Alias = clock.Virtual
var V = clock.New()
var W clock.T
var L = []string{clock.Name}
func (S) M(x clock.T) {}
func (s hiddenT) M(x clock.T) {}
func private(x clock.T) {}
func C() { _ = func(x clock.T) {} }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	refs := internalRefs(fset, f)
	want := []string{"A names clock.Virtual", "B names c2.T", "type S names clock.Clock", "type S names clock.Embedded",
		"type I names clock.T", "type Alias names clock.Virtual", "V names clock.New", "W names clock.T", "S.M names clock.T"}
	if len(refs) != len(want) {
		t.Fatalf("found %d references, want %d:\n%s", len(refs), len(want), strings.Join(refs, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(refs[i], w) {
			t.Errorf("reference %d: %s, want %q", i, refs[i], w)
		}
	}
}
