package codec

import (
	"bytes"
	"strings"
)

// For generated code: the deep copies of Clone that are not one call of the
// standard library. Both keep a nil slice nil and an empty one empty, since
// the two encode differently where a field is nullable.

// CloneStrings copies s and every string in it.
func CloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	c := make([]string, len(s))
	for i, v := range s {
		c[i] = strings.Clone(v)
	}
	return c
}

// CloneByteSlices copies s and every byte slice in it.
func CloneByteSlices(s [][]byte) [][]byte {
	if s == nil {
		return nil
	}
	c := make([][]byte, len(s))
	for i, v := range s {
		c[i] = bytes.Clone(v)
	}
	return c
}
