package freeports

import (
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunIsFreeAndOutsideTheEphemeralRange(t *testing.T) {
	lo, hi := ephemeralRange()
	for range 20 {
		base, err := Run(4)
		require.NoError(t, err)
		require.GreaterOrEqual(t, base, lowest)
		require.True(t, base+3 < lo || base > hi, "run %d-%d overlaps the ephemeral range %d-%d", base, base+3, lo, hi)
		for i := range 4 {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			require.NoError(t, err)
			ln.Close()
		}
	}
}

func TestAllFreeSeesATakenPort(t *testing.T) {
	base, err := Run(3)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+2))
	require.NoError(t, err)
	defer ln.Close()
	require.False(t, allFree(base, 3))
	require.True(t, allFree(base, 2))
}

func TestRunRefusesNoPorts(t *testing.T) {
	_, err := Run(0)
	require.ErrorContains(t, err, "at least one port")
}
