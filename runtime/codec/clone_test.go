package codec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCloneStrings(t *testing.T) {
	for name, in := range map[string][]string{"nil": nil, "empty": {}, "two": {"a", ""}} {
		t.Run(name, func(t *testing.T) {
			out := CloneStrings(in)
			assert.Equal(t, in == nil, out == nil, "nil must stay nil and empty empty")
			assert.Equal(t, in, out)
			if len(in) > 0 {
				out[0] = "changed"
				assert.NotEqual(t, "changed", in[0], "the copy shares the slice")
			}
		})
	}
}

func TestCloneByteSlices(t *testing.T) {
	for name, in := range map[string][][]byte{"nil": nil, "empty": {}, "null and empty elements": {nil, {}, {1, 2}}} {
		t.Run(name, func(t *testing.T) {
			out := CloneByteSlices(in)
			require.Equal(t, in == nil, out == nil)
			require.Equal(t, in, out)
			for i := range in {
				assert.Equal(t, in[i] == nil, out[i] == nil, "element %d", i)
				if len(in[i]) > 0 {
					out[i][0] = 0xff
					assert.NotEqual(t, byte(0xff), in[i][0], "element %d shares its bytes", i)
				}
			}
		})
	}
}
