package kcatclient

import (
	"os/exec"
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/kfakerun"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
)

// TestSecureStepsAgainstKfake runs over SSL only: librdkafka 2.0.2
// authenticates only with a broker whose ApiVersions lists SaslHandshake
// v0 (its SASL handshake feature), and kfake serves v1 only, so kcat gives
// up with "SASL Handshake not supported by broker".
func TestSecureStepsAgainstKfake(t *testing.T) {
	if _, err := exec.LookPath("kcat"); err != nil {
		t.Skip("kcat is not installed: run interop/install.sh")
	}
	require.NoError(t, kfakerun.RunSecured(t.Logf, t.TempDir(), scenario.SSL, "", SecureSteps, kfake.AllowAutoTopicCreation()))
}
