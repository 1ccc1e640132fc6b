package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const base = `package p

type M struct{ A int32 }

func (m *M) appendTo(b []byte, version int16) ([]byte, error) {
	if version < 1 && m.A != 0 {
		return b, codec.NonDefaultError("A", version)
	}
	return append(b, byte(m.A)), nil
}

func (m *M) Other() {}
`

func TestHotDiff(t *testing.T) {
	tests := []struct {
		name, cur string
		want      int
	}{
		{"same", base, 0},
		{"a method that is not hot", base[:len(base)-len("func (m *M) Other() {}\n")] + "func (m *M) Other() { _ = 1 }\n", 0},
		{"only the error line", replace(base, `codec.NonDefaultError("A", version)`, `codec.AbsentFieldError("A", version, "A has versions 1+")`), 0},
		{"the encoding", replace(base, "byte(m.A)", "byte(m.A>>8)"), 1},
		{"a condition", replace(base, "version < 1", "version < 2"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, cur := write(t, base), write(t, tt.cur)
			a, err := hotMethods(old)
			require.NoError(t, err)
			b, err := hotMethods(cur)
			require.NoError(t, err)
			assert.Equal(t, tt.want, report(a, b))
		})
	}
	_, err := hotMethods(t.TempDir())
	assert.ErrorContains(t, err, "no Go files")
}

func replace(s, old, cur string) string { return strings.Replace(s, old, cur, 1) }

func write(t *testing.T, src string) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o600))
	return dir
}
