package kcatclient

import (
	"os/exec"
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/kfakerun"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
)

func TestStepsAgainstKfake(t *testing.T) {
	if _, err := exec.LookPath("kcat"); err != nil {
		t.Skip("kcat is not installed: run interop/install.sh")
	}
	// kcat produces to topics it never created, as users of a Kafka with
	// auto.create.topics.enable do; the example broker creates them too.
	require.NoError(t, kfakerun.Run(t.Logf, Steps, nil, kfake.AllowAutoTopicCreation()))
}
