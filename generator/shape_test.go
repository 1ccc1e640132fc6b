package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

// funcShape is the size of one generated function: its lines (from func to
// the closing brace) and its deepest line's indentation in tabs (a body
// statement is at 1; each nested block adds one).
type funcShape struct {
	name         string
	lines, depth int
}

// shapes measures every function and method of a generated file.
func shapes(t *testing.T, file string, src []byte) []funcShape {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, 0)
	require.NoError(t, err, file)
	lines := strings.Split(string(src), "\n")
	var out []funcShape
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		first, last := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		s := funcShape{name: name, lines: last - first + 1}
		for _, l := range lines[first-1 : last] {
			s.depth = max(s.depth, len(l)-len(strings.TrimLeft(l, "\t")))
		}
		out = append(out, s)
	}
	return out
}

func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		return recvName(s.X)
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// TestCorpusFunctionShape: in the package generated from the upstream
// clients folder with -json, every decode, appendTo, appendJSON and
// decodeJSON method and every entity or endpoint visitor is under 150
// lines and at most 6 levels deep (issue 11 set the bar for decode; issue
// 19 holds appendTo and the JSON methods to it). The longest and deepest
// method of each kind and the longest function (the registry's NewByName,
// a table) are logged.
func TestCorpusFunctionShape(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path))
	require.NoError(t, err)
	files, err := generate(corpus.Dirs[0].Package, specs, Config{JSON: true})
	require.NoError(t, err)
	kinds := []string{"decode", "appendTo", "appendJSON", "decodeJSON", "visitEntities", "visitEndpoints"}
	longest, deepest := map[string]funcShape{}, map[string]funcShape{}
	var longestAny funcShape
	for _, name := range sortedNames(files) {
		for _, s := range shapes(t, name, files[name]) {
			if s.lines > longestAny.lines {
				longestAny = s
			}
			_, method, _ := strings.Cut(s.name, ".")
			for _, kind := range kinds {
				if !strings.EqualFold(method, kind) || method != kind && !strings.HasPrefix(kind, "visit") {
					continue // Decode and AppendTo are the exported wrappers
				}
				assert.Less(t, s.lines, 150, "%s: %s has %d lines", name, s.name, s.lines)
				assert.LessOrEqual(t, s.depth, 6, "%s: %s is %d levels deep", name, s.name, s.depth)
				if s.lines > longest[kind].lines {
					longest[kind] = s
				}
				if s.depth > deepest[kind].depth {
					deepest[kind] = s
				}
			}
		}
	}
	for _, kind := range kinds {
		require.NotZero(t, longest[kind].lines, "no %s method measured", kind)
		t.Logf("shape %s: longest %s, %d lines; deepest %s, %d levels", kind,
			longest[kind].name, longest[kind].lines, deepest[kind].name, deepest[kind].depth)
	}
	t.Logf("shape: longest function %s, %d lines", longestAny.name, longestAny.lines)
}
