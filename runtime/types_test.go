package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUUIDText(t *testing.T) {
	u, err := ParseUUID("H3KKO4NTRPaCWtEmm3vW7A")
	require.NoError(t, err)
	assert.Equal(t, "H3KKO4NTRPaCWtEmm3vW7A", u.String())
	_, err = ParseUUID("short")
	assert.Error(t, err)
}

func TestTagsClone(t *testing.T) {
	assert.Nil(t, Tags(nil).Clone())
	assert.NotNil(t, Tags{}.Clone(), "empty must stay empty, not become nil")
	orig := Tags{{Tag: 3, Data: []byte{1, 2}}, {Tag: 9}}
	c := orig.Clone()
	require.Equal(t, orig, c)
	c[0].Data[0] = 0xff
	c[1].Tag = 4
	assert.Equal(t, Tags{{Tag: 3, Data: []byte{1, 2}}, {Tag: 9}}, orig, "the clone shares memory with its original")
}
