// Package configwalk measures how far a reader must go to follow one run's
// configuration through the generator: starting from the parameter of
// generator.Run (a generator.Config), it follows each value taken from it
// through calls, assignments, struct fields and returns, until the value
// is used (an operation, or a call outside the module), and counts the
// files entered and the climbs back up: calls into a file that the walk
// came down through and has not left (a lower layer reaching up, or a
// helper file every printer returns to). Issue 19 asks for at most 12
// files and 10 climbs.
//
// A value stays "the configuration" while it is passed on as it is: an
// argument, a receiver, an assignment, a struct field or composite literal
// member, a conversion, a return. A value that holds the configuration
// (a struct built with it, or one of whose fields is assigned it) is the
// configuration too, and so are its fields. Anything computed from it is a use,
// where the walk stops. Calls through interfaces and function values are
// not followed.
package configwalk

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
)

// Report is the result of a walk.
type Report struct {
	Files  []string // the files entered, in the order first entered, relative to the module
	Climbs []string // each climb: "caller.go -> callee.go (Func)"
	Calls  int      // call edges followed
}

// Walk follows the configuration from the function entry (such as "Run")
// of package entryPkg (such as "github.com/kafkagen/kafkagen/generator") of
// the module at root.
func Walk(root, module, entryPkg, entry string) (*Report, error) {
	p := newProgram(root, module)
	tp, err := p.Import(entryPkg)
	if err != nil {
		return nil, err
	}
	w := &walker{p: p, decls: p.funcs(), tainted: map[types.Object]bool{}, returns: map[*types.Func]map[int]bool{},
		edges: map[token.Pos]bool{}, seenFiles: map[string]bool{}, rep: &Report{}}
	w.readers = w.fieldReaders()
	fn := tp.Scope().Lookup(entry).(*types.Func)
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		w.tainted[sig.Params().At(i)] = true
	}
	w.visit(fn, nil)
	return w.rep, nil
}

type walker struct {
	p         *program
	decls     map[*types.Func]*ast.FuncDecl
	readers   map[types.Object][]*types.Func
	tainted   map[types.Object]bool
	returns   map[*types.Func]map[int]bool // the results that return the configuration
	edges     map[token.Pos]bool           // call sites followed
	seenFiles map[string]bool
	rep       *Report
}

func (w *walker) file(fn *types.Func) string {
	rel, err := filepath.Rel(w.p.root, w.p.fset.Position(w.decls[fn].Pos()).Filename)
	if err != nil {
		return w.p.fset.Position(w.decls[fn].Pos()).Filename
	}
	return rel
}

// visit reads fn's body with the current taint until nothing more is
// tainted, following every call that passes the configuration on. stack
// holds the files of the callers.
func (w *walker) visit(fn *types.Func, stack []string) {
	decl := w.decls[fn]
	file := w.file(fn)
	if !w.seenFiles[file] {
		w.seenFiles[file] = true
		w.rep.Files = append(w.rep.Files, file)
	}
	stack = append(stack, file)
	for changed := true; changed; {
		changed = false
		fields := map[types.Object]bool{}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if w.statement(fn, n, fields) {
				changed = true
			}
			if call, ok := n.(*ast.CallExpr); ok && w.call(call, stack) {
				changed = true
			}
			return true
		})
		for _, f := range sortedObjects(fields) {
			for _, reader := range w.readers[f] {
				w.follow(token.NoPos, reader, stack)
			}
		}
	}
}

// statement propagates the taint through one assignment, range or return;
// fields collects the struct fields newly tainted.
func (w *walker) statement(fn *types.Func, n ast.Node, fields map[types.Object]bool) bool {
	changed := false
	var mark func(lhs ast.Expr)
	mark = func(lhs ast.Expr) {
		if s, ok := lhs.(*ast.SelectorExpr); ok {
			mark(s.X) // the struct now holds the configuration
		}
		if o := w.target(lhs); o != nil && !w.tainted[o] {
			w.tainted[o], changed = true, true
			if v, ok := o.(*types.Var); ok && v.IsField() {
				fields[o] = true
			}
		}
	}
	switch s := n.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) == len(s.Rhs) {
			for i := range s.Lhs {
				if w.is(s.Rhs[i]) {
					mark(s.Lhs[i])
				}
			}
		} else if call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr); ok && len(s.Rhs) == 1 {
			if fn := w.callee(call); fn != nil {
				for i, l := range s.Lhs {
					if w.returns[fn][i] {
						mark(l)
					}
				}
			}
		}
	case *ast.ValueSpec:
		for i, v := range s.Values {
			if i < len(s.Names) && w.is(v) {
				mark(s.Names[i])
			}
		}
	case *ast.RangeStmt:
		if w.is(s.X) {
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if e != nil {
					mark(e)
				}
			}
		}
	case *ast.ReturnStmt:
		for i, r := range s.Results {
			if w.is(r) && !w.returns[fn][i] {
				if w.returns[fn] == nil {
					w.returns[fn] = map[int]bool{}
				}
				w.returns[fn][i], changed = true, true
			}
		}
	case *ast.CompositeLit:
		for _, e := range s.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok && w.is(kv.Value) {
				if id, ok := kv.Key.(*ast.Ident); ok {
					mark(id)
				}
			}
		}
	}
	return changed
}

// target is the variable or field an assignment writes.
func (w *walker) target(e ast.Expr) types.Object {
	switch e := e.(type) {
	case *ast.Ident:
		if o := w.p.info.Defs[e]; o != nil {
			return o
		}
		return w.p.info.Uses[e]
	case *ast.SelectorExpr:
		if sel := w.p.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
	case *ast.StarExpr:
		return w.target(e.X)
	}
	return nil
}

// is reports whether e is the configuration passed on as it is.
func (w *walker) is(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return w.tainted[w.target(e)]
	case *ast.SelectorExpr:
		if sel := w.p.info.Selections[e]; sel != nil {
			return sel.Kind() == types.FieldVal && (w.tainted[sel.Obj()] || w.is(e.X))
		}
		return w.tainted[w.p.info.Uses[e.Sel]]
	case *ast.ParenExpr:
		return w.is(e.X)
	case *ast.StarExpr:
		return w.is(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.AND && w.is(e.X)
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			if w.is(elt) {
				return true
			}
		}
	case *ast.CallExpr:
		if tv := w.p.info.Types[e.Fun]; tv.IsType() && len(e.Args) == 1 {
			return w.is(e.Args[0])
		}
		if fn := w.callee(e); fn != nil {
			return w.returns[fn][0]
		}
	}
	return false
}

// callee is the module function or method a call names statically.
func (w *walker) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // an instantiated generic function
		if s, ok := f.X.(*ast.Ident); ok {
			id = s
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := w.p.info.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if _, ok := w.decls[fn]; !ok {
		return nil
	}
	return fn
}

// call follows a call that passes the configuration to a module function:
// its parameters (and receiver) that receive it are tainted. It reports
// whether anything was newly tainted or followed.
func (w *walker) call(call *ast.CallExpr, stack []string) bool {
	fn := w.callee(call)
	if fn == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	passes, changed := false, false
	taint := func(v *types.Var) {
		passes = true
		if !w.tainted[v] {
			w.tainted[v], changed = true, true
		}
	}
	if s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sig.Recv() != nil {
		if sel := w.p.info.Selections[s]; sel != nil && sel.Kind() == types.MethodVal && w.is(s.X) {
			taint(sig.Recv())
		}
	}
	for i, a := range call.Args {
		if w.is(a) {
			taint(sig.Params().At(min(i, sig.Params().Len()-1)))
		}
	}
	if !passes || w.edges[call.Pos()] && !changed {
		return changed
	}
	w.follow(call.Pos(), fn, stack)
	return true
}

// follow visits fn, called at pos (NoPos: fn reads a field newly holding
// the configuration), counting the edge and its climb the first time.
func (w *walker) follow(pos token.Pos, fn *types.Func, stack []string) {
	if first := pos == token.NoPos || !w.edges[pos]; first {
		w.edges[pos] = true
		w.rep.Calls++
		file, here := w.file(fn), stack[len(stack)-1]
		if file != here && slices.Contains(stack, file) {
			w.rep.Climbs = append(w.rep.Climbs, here+" -> "+file+" ("+fn.Name()+")")
		}
	}
	w.visit(fn, stack)
}

// fieldReaders maps each struct field of the module to the functions that
// read it.
func (w *walker) fieldReaders() map[types.Object][]*types.Func {
	out := map[types.Object][]*types.Func{}
	for fn, decl := range w.decls {
		seen := map[types.Object]bool{}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if sel := w.p.info.Selections[s]; sel != nil && sel.Kind() == types.FieldVal && !seen[sel.Obj()] {
					seen[sel.Obj()] = true
					out[sel.Obj()] = append(out[sel.Obj()], fn)
				}
			}
			return true
		})
	}
	for _, fns := range out {
		sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	}
	return out
}

func sortedObjects(m map[types.Object]bool) []types.Object {
	out := make([]types.Object, 0, len(m))
	for o := range m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}
