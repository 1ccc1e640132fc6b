package kgoclient

import (
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

func TestStepsAgainstKfake(t *testing.T) {
	scenario.RunAgainstKfake(t, Steps, nil)
}
