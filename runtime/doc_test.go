package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExportedNamesDocumented: every exported function, method, type,
// constant, variable and interface method of the package has a doc comment.
func TestExportedNamesDocumented(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var missing []string
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		require.NoError(t, err)
		report := func(pos token.Pos, name string) {
			missing = append(missing, fset.Position(pos).String()+": "+name)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Doc == nil {
					report(d.Pos(), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					undocumentedSpec(d, s, report)
				}
			}
		}
	}
	assert.Empty(t, missing, "exported names without a doc comment")
}

// undocumentedSpec reports the exported names of one type, const or var spec
// that have no comment of their own or of their declaration group.
func undocumentedSpec(d *ast.GenDecl, s ast.Spec, report func(token.Pos, string)) {
	switch s := s.(type) {
	case *ast.TypeSpec:
		if s.Name.IsExported() && d.Doc == nil && s.Doc == nil {
			report(s.Pos(), s.Name.Name)
		}
		if it, ok := s.Type.(*ast.InterfaceType); ok && s.Name.IsExported() {
			for _, m := range it.Methods.List {
				if len(m.Names) > 0 && m.Names[0].IsExported() && m.Doc == nil && m.Comment == nil {
					report(m.Pos(), s.Name.Name+"."+m.Names[0].Name)
				}
			}
		}
	case *ast.ValueSpec:
		grouped := d.Lparen.IsValid()
		for _, n := range s.Names {
			// In a group, each value needs its own comment; a lone
			// declaration may use the declaration's.
			if n.IsExported() && s.Doc == nil && s.Comment == nil && (grouped || d.Doc == nil) {
				report(n.Pos(), n.Name)
			}
		}
	}
}
