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
// clients folder, every decode method and every entity or endpoint
// visitor is under 150 lines and at most 6 levels deep (issue 11). The
// longest decode method, the longest visitor and the longest function (the
// registry's NewByName, a table) are logged.
func TestCorpusFunctionShape(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path))
	require.NoError(t, err)
	files, err := Generate(corpus.Dirs[0].Package, specs)
	require.NoError(t, err)
	var longest, deepest, longestAny, longestVisitor funcShape
	for _, name := range sortedNames(files) {
		for _, s := range shapes(t, name, files[name]) {
			if s.lines > longestAny.lines {
				longestAny = s
			}
			if isVisitor(s.name) {
				assert.Less(t, s.lines, 150, "%s: %s has %d lines", name, s.name, s.lines)
				assert.LessOrEqual(t, s.depth, 6, "%s: %s is %d levels deep", name, s.name, s.depth)
				if s.lines > longestVisitor.lines {
					longestVisitor = s
				}
			}
			if !strings.HasSuffix(s.name, ".decode") {
				continue
			}
			assert.Less(t, s.lines, 150, "%s: %s has %d lines", name, s.name, s.lines)
			assert.LessOrEqual(t, s.depth, 6, "%s: %s is %d levels deep", name, s.name, s.depth)
			if s.lines > longest.lines {
				longest = s
			}
			if s.depth > deepest.depth {
				deepest = s
			}
		}
	}
	t.Logf("shape: longest decode %s, %d lines; deepest decode %s, %d levels; longest visitor %s, %d lines; longest function %s, %d lines",
		longest.name, longest.lines, deepest.name, deepest.depth, longestVisitor.name, longestVisitor.lines, longestAny.name, longestAny.lines)
	require.NotEmpty(t, longestVisitor.name, "no visitor measured")
}

// isVisitor reports whether a method is an entity or endpoint visitor.
func isVisitor(name string) bool {
	_, method, _ := strings.Cut(name, ".")
	return strings.EqualFold(method, "visitEntities") || strings.EqualFold(method, "visitEndpoints")
}
