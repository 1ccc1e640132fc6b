package main

import (
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiffContents(t *testing.T) {
	plain := contents{"a": {"key=1", "key=2"}, "b": nil}
	tests := []struct {
		name     string
		prefixed contents
		want     []string
	}{
		{"the same under the prefix", contents{"p.a": {"key=1", "key=2"}, "p.b": nil}, nil},
		{"a record missing", contents{"p.a": {"key=1"}, "p.b": nil},
			[]string{"p.a holds 1 records, a 2; the first that differs: missing key=2"}},
		{"a record changed", contents{"p.a": {"key=1", "key=3"}, "p.b": nil},
			[]string{"p.a holds 2 records, a 2; the first that differs: key=3 instead of key=2"}},
		{"a topic missing", contents{"p.a": {"key=1", "key=2"}},
			[]string{"topic b has no p.b"}},
		{"a topic without the prefix", contents{"p.a": {"key=1", "key=2"}, "p.b": nil, "a": {"key=1", "key=2"}},
			[]string{"topic a is not the prefixed name of a topic of the plain run"}},
		{"a prefixed topic of nothing", contents{"p.a": {"key=1", "key=2"}, "p.b": nil, "p.c": nil},
			[]string{"topic p.c is not the prefixed name of a topic of the plain run"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, diffContents(plain, tt.prefixed, "p."), tt.name)
	}
}

// freeRun's ports are free in a row, for kafkaproxy's bootstrap port and
// nodes 0 to n-2.
func TestFreeRun(t *testing.T) {
	base, err := freeRun(4)
	require.NoError(t, err)
	for i := range 4 {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
		require.NoError(t, err, "port %d", base+i)
		ln.Close()
	}
}
