package codec

import (
	"bytes"
	"strings"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: the deep copies of Clone, out of line so that each
// generated deepen method is a list of calls (inlined, they made Clone a
// third of the compiled package). All keep a nil slice nil and an empty
// one empty, since the two encode differently where a field is nullable.

// CloneString copies s into memory of its own.
//
//go:noinline
func CloneString(s string) string { return strings.Clone(s) }

// CloneBytes copies b.
//
//go:noinline
func CloneBytes(b []byte) []byte { return bytes.Clone(b) }

// CloneTags copies unknown tagged fields.
//
//go:noinline
func CloneTags(t runtime.Tags) runtime.Tags { return t.Clone() }

// CloneSlice copies a slice of values without references (numbers, bools,
// UUIDs).
//
//go:noinline
func CloneSlice[E any](s []E) []E {
	if s == nil {
		return nil
	}
	c := make([]E, len(s))
	copy(c, s)
	return c
}

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
