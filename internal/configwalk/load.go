package configwalk

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
)

// program is the module's packages that the walk may enter, type-checked
// from source with their syntax and type information.
type program struct {
	fset     *token.FileSet
	root     string // the module's folder
	module   string // its path
	pkgs     map[string]*pkg
	external types.Importer
	info     *types.Info // shared by every package of the module
}

type pkg struct {
	types *types.Package
	files []*ast.File
}

func newProgram(root, module string) *program {
	fset := token.NewFileSet()
	return &program{
		fset: fset, root: root, module: module, pkgs: map[string]*pkg{},
		external: importer.ForCompiler(fset, "source", nil),
		info: &types.Info{
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Types:      map[ast.Expr]types.TypeAndValue{},
		},
	}
}

// Import type-checks a package of the module from source, and leaves any
// other to the source importer.
func (p *program) Import(path string) (*types.Package, error) {
	if path != p.module && !strings.HasPrefix(path, p.module+"/") {
		return p.external.Import(path)
	}
	if k, ok := p.pkgs[path]; ok {
		return k.types, nil
	}
	dir := filepath.Join(p.root, strings.TrimPrefix(strings.TrimPrefix(path, p.module), "/"))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	k := &pkg{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if isIgnored(f) {
			continue
		}
		k.files = append(k.files, f)
	}
	conf := types.Config{Importer: p}
	k.types, err = conf.Check(path, p.fset, k.files, p.info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", path, err)
	}
	p.pkgs[path] = k
	return k.types, nil
}

// isIgnored reports a file left out of normal builds by a build constraint
// (the module has none among the packages walked but tags such as corpus).
func isIgnored(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return true
			}
		}
	}
	return false
}

// funcs maps every function and method declared in the module's loaded
// packages to its declaration.
func (p *program) funcs() map[*types.Func]*ast.FuncDecl {
	out := map[*types.Func]*ast.FuncDecl{}
	for _, k := range p.pkgs {
		for _, f := range k.files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if fn, ok := p.info.Defs[fd.Name].(*types.Func); ok {
						out[fn] = fd
					}
				}
			}
		}
	}
	return out
}
