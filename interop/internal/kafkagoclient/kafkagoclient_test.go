package kafkagoclient

import (
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/kfakerun"
	"github.com/stretchr/testify/require"
)

func TestStepsAgainstKfake(t *testing.T) {
	require.NoError(t, kfakerun.Run(t.Logf, Steps, nil))
}
