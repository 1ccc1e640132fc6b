package schema

import (
	"fmt"
	"sort"
	"strings"
)

// Diagnostic is one problem found in a spec file, located by line and column
// (both 1-based, columns counted in bytes).
type Diagnostic struct {
	File    string
	Line    int
	Col     int
	Subject string // "Message" or "Message.Field" (nested fields: "Message.Outer.Inner")
	Text    string
}

func (d Diagnostic) String() string {
	if d.Subject == "" {
		return fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Col, d.Text)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", d.File, d.Line, d.Col, d.Subject, d.Text)
}

// Diagnostics is every problem found in one or more spec files. It is an error.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Sort orders diagnostics by file, then position, keeping the order of
// diagnostics reported at the same place.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// lineIndex maps byte offsets of one file to line and column.
type lineIndex struct {
	starts []int // byte offset of the start of each line
}

func (li lineIndex) position(offset int) (line, col int) {
	i := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > offset }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, offset - li.starts[i] + 1
}
