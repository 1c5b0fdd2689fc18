package repocheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTestWaitsWithoutABound: a test fails, it does not hang. Every
// channel receive in a _test.go file is a case of a select that also has a
// bounded case (a default, time.After, a timer's C), or goes through
// internal/within's Recv, which fails the test after a short deadline
// naming what it waited for; so is every range over a channel. A wait
// that is bounded by something else (a request's context, which the
// client or the server's close ends) says so on its line with a comment
// "bounded: why".
func TestNoTestWaitsWithoutABound(t *testing.T) {
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") || strings.Contains(path, filepath.Join("internal", "within")) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		bounded := map[int]bool{}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.Contains(c.Text, "bounded:") {
					bounded[fset.Position(c.Pos()).Line] = true
				}
			}
		}
		report := func(n ast.Node, what string) {
			pos := fset.Position(n.Pos())
			if bounded[pos.Line] {
				return
			}
			rel, _ := filepath.Rel(root, pos.Filename)
			t.Errorf("%s:%d: %s without a bound: use within.Recv, or a select with a timeout case", rel, pos.Line, what)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectStmt:
				if !hasBoundedCase(x) {
					report(x, "a select")
				}
				// The cases' own receives are the select's; their bodies are
				// checked as any other code.
				for _, c := range x.Body.List {
					for _, s := range c.(*ast.CommClause).Body {
						ast.Inspect(s, func(m ast.Node) bool { return visit(m, report) })
					}
				}
				return false
			}
			return visit(n, report)
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// visit reports a bare receive or a range over a channel made here; it
// returns whether to go on into n's children (a select is handled by the
// caller).
func visit(n ast.Node, report func(ast.Node, string)) bool {
	switch x := n.(type) {
	case *ast.SelectStmt:
		if !hasBoundedCase(x) {
			report(x, "a select")
		}
		return true
	case *ast.UnaryExpr:
		if x.Op == token.ARROW && !isTimer(x.X) {
			report(x, "a channel receive")
		}
	case *ast.RangeStmt:
		if u, ok := x.X.(*ast.CallExpr); ok && isIdent(u.Fun, "make") {
			return true
		}
	}
	return true
}

// hasBoundedCase reports whether a select can always go on: it has a
// default, or a case that receives from a timer.
func hasBoundedCase(s *ast.SelectStmt) bool {
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		if cc.Comm == nil {
			return true // default
		}
		var recv ast.Expr
		switch st := cc.Comm.(type) {
		case *ast.ExprStmt:
			recv = st.X
		case *ast.AssignStmt:
			recv = st.Rhs[0]
		}
		if u, ok := recv.(*ast.UnaryExpr); ok && u.Op == token.ARROW && isTimer(u.X) {
			return true
		}
	}
	return false
}

// isTimer reports whether e is time.After(…), or a timer's or ticker's C.
func isTimer(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			return isIdent(sel.X, "time") && sel.Sel.Name == "After"
		}
	case *ast.SelectorExpr:
		return x.Sel.Name == "C"
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
