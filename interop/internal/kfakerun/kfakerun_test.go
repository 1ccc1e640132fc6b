package kfakerun

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// steps are two scenarios that need no client: one passes, one fails.
func steps(broker string, n int) []scenario.Step {
	return []scenario.Step{
		{Name: "passes", Run: func(context.Context) (string, error) { return fmt.Sprintf("%d records at %s", n, broker), nil }},
		{Name: "fails", Run: func(context.Context) (string, error) { return "", errors.New("broken") }},
	}
}

func TestRunReportsFailedSteps(t *testing.T) {
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
	err := Run(logf, steps, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "1 of 2 steps failed")
	assert.Contains(t, err.Error(), "FAIL client fails: broken")
	require.Len(t, logged, 1)
	assert.Contains(t, logged[0], "ok client passes: 10 records at 127.0.0.1:")
}

func TestRunSkips(t *testing.T) {
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
	require.NoError(t, Run(logf, steps, map[string]string{"fails": "kfake lacks it"}))
	assert.Equal(t, "not against kfake: fails (kfake lacks it)", logged[0])

	err := Run(logf, steps, map[string]string{"fails": "x", "passes": "y"})
	assert.EqualError(t, err, "kfake: no step to run")
}
