package kafkagoclient

import (
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/kfakerun"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/stretchr/testify/require"
)

func TestSecureStepsAgainstKfake(t *testing.T) {
	for _, p := range [][2]string{{scenario.SASLPlaintext, scenario.Plain}, {scenario.SASLSSL, scenario.ScramSHA512}} {
		require.NoError(t, kfakerun.RunSecured(t.Logf, t.TempDir(), p[0], p[1], SecureSteps), p)
	}
}
