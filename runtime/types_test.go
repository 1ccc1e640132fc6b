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
