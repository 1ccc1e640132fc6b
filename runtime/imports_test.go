package runtime

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The module path of the two packages generated code may import besides
// the standard library.
const modulePath = "github.com/kafkagen/kafkagen"

// allowedInGenerated reports whether code of runtime, runtime/codec or a
// generated package may import path: users' builds must need nothing else.
func allowedInGenerated(path string) bool {
	if path == modulePath+"/runtime" || path == modulePath+"/runtime/codec" {
		return true
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") // the standard library has no dot there
}

func TestAllowedInGenerated(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"encoding/binary", true},
		{"math/bits", true},
		{modulePath + "/runtime", true},
		{modulePath + "/runtime/codec", true},
		{modulePath + "/wire", false},
		{modulePath + "/generator/schema", false},
		{"github.com/stretchr/testify/require", false},
		{"golang.org/x/sys/unix", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, allowedInGenerated(c.path), c.path)
	}
}

// TestOnlyStandardImports: runtime, runtime/codec and the committed
// generated package (the non-test files) import only the standard library
// and each other.
func TestOnlyStandardImports(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	for _, dir := range []string{".", "codec", filepath.Join("..", "generated")} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			require.NoError(t, err)
			files++
			for _, imp := range f.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				require.NoError(t, err)
				assert.True(t, allowedInGenerated(p), "%s imports %s", path, p)
			}
		}
	}
	assert.Greater(t, files, 40, "the three folders were read")
}
