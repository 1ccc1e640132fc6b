package saramaclient

import (
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/kfakerun"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/stretchr/testify/require"
)

func TestSecureStepsAgainstKfake(t *testing.T) {
	for _, p := range [][2]string{{scenario.SASLPlaintext, scenario.ScramSHA256}, {scenario.SSL, ""}} {
		require.NoError(t, kfakerun.RunSecured(t.Logf, t.TempDir(), p[0], p[1], SecureSteps), p)
	}
}
